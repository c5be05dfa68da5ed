package bad

var x int = "not an int"

func F() { undefined() }
