package main

import "golang.org/x/sys/windows"

// pinXInput loads the game-controller library GLFW loads (the first of
// its list this system has) once more, so that it stays loaded when GLFW
// lets go of it as the window closes. Wine's XInput runs a thread of its
// own that is still running then: with the library unloaded under it, the
// program crashed on closing (a page fault inside xinput1_4.dll, seen in
// about one close in five on a busy machine). The library stays until the
// process ends, which stops the thread first.
func pinXInput() {
	for _, name := range []string{"xinput1_4.dll", "xinput1_3.dll", "xinput9_1_0.dll", "xinput1_2.dll", "xinput1_1.dll"} {
		if _, err := windows.LoadLibraryEx(name, 0, windows.LOAD_LIBRARY_SEARCH_SYSTEM32); err == nil {
			return
		}
	}
}
