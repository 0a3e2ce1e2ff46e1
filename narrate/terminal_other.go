//go:build !unix

// terminal_other.go: where kubesim cannot ask the terminal its width, the text story is DefaultWidth
// columns wide.
package narrate

import "os"

// TerminalWidth is DefaultWidth: this system gives kubesim no way to ask the terminal.
func TerminalWidth(f *os.File) int { return DefaultWidth }
