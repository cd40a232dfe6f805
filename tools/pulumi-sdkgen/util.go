package main

import "strconv"

// quote is strconv.Quote, for values named in error messages.
func quote(s string) string { return strconv.Quote(s) }
