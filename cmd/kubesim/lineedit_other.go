//go:build !linux

// lineedit_other.go: elsewhere than Linux the prompt reads plain lines (no history, no completion).
package main

import (
	"errors"
	"os"
)

func cbreak(*os.File) (terminalMode, error) {
	return nil, errors.New("the line editor runs on Linux terminals only")
}
