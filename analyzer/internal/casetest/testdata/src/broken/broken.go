package broken

func bad() {}

func G() {
	bad()  // want `^call to good$`
	bad()  // the analyzer reports this one with no want
	good() // want "call to good"
}

func good() {}
