//go:build race

package workflow

// raceDetector: the tests run under the race detector (-race).
const raceDetector = true
