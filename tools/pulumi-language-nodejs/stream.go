package main

import "sync"

// streamWriter forwards a child process's output to a gRPC stream as it comes. The stdout and
// stderr writers of one process share mu, because a gRPC stream must not be sent on from two
// goroutines at once (exec copies each pipe in its own goroutine).
type streamWriter struct {
	mu   *sync.Mutex
	send func([]byte) error
}

func (w streamWriter) Write(p []byte) (int, error) {
	// exec reuses p once Write returns, and gRPC may still hold the message it was sent in.
	buf := append([]byte(nil), p...)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.send(buf); err != nil {
		return 0, err
	}
	return len(p), nil
}
