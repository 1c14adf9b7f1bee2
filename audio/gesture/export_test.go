package gesture

// For the tests of package gesture_test.
var (
	CalibScale = calibScale[:]
	CalibPoint = calibPoint
)
