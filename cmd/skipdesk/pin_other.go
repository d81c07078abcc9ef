//go:build !windows

package main

// pinXInput is for Windows only (pin_windows.go).
func pinXInput() {}
