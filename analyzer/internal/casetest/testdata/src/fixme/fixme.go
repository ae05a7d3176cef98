package fixme

func bad() {} // want bad:"marked"

func good() {}

func F() {
	bad() // want `^call to bad$`
	bad() // want `^call to bad$`
}
