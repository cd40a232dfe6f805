package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// writeFiles writes the generated files (relative, slash-separated paths) under dir, which must be
// absent or empty: a directory with other files in it is refused rather than merged into, since a
// file left over from an earlier schema would be shipped without being generated.
func writeFiles(dir string, files map[string][]byte) error {
	entries, err := os.ReadDir(dir)
	switch {
	case err == nil && len(entries) > 0:
		return fmt.Errorf("%s is not empty (it holds %s): write the SDK into an absent or empty directory",
			dir, entries[0].Name())
	case err != nil && !os.IsNotExist(err):
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		clean := filepath.Clean(filepath.FromSlash(name))
		if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
			return fmt.Errorf("the generator named a file outside the SDK directory: %s", quote(name))
		}
		path := filepath.Join(dir, clean)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
