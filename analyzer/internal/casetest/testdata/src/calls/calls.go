package calls

func bad() {} // want bad:"marked"

func good() {}

func F() {
	bad() // want `^call to bad$`
	good()
	//lint:note directive // want `^directive$`
}
