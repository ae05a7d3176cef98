// want package:`convs\(62\)`
// Package second stores the other 60 settings actions.
package second

import (
	"net/http"
	"time"

	"manyactions/table"
)

func init() {
	table.Actions["a200"] = a200
	table.Actions["a201"] = a201
	table.Actions["a202"] = a202
	table.Actions["a203"] = a203
	table.Actions["a204"] = a204
	table.Actions["a205"] = a205
	table.Actions["a206"] = a206
	table.Actions["a207"] = a207
	table.Actions["a208"] = a208
	table.Actions["a209"] = a209
	table.Actions["a210"] = a210
	table.Actions["a211"] = a211
	table.Actions["a212"] = a212
	table.Actions["a213"] = a213
	table.Actions["a214"] = a214
	table.Actions["a215"] = a215
	table.Actions["a216"] = a216
	table.Actions["a217"] = a217
	table.Actions["a218"] = a218
	table.Actions["a219"] = a219
	table.Actions["a220"] = a220
	table.Actions["a221"] = a221
	table.Actions["a222"] = a222
	table.Actions["a223"] = a223
	table.Actions["a224"] = a224
	table.Actions["a225"] = a225
	table.Actions["a226"] = a226
	table.Actions["a227"] = a227
	table.Actions["a228"] = a228
	table.Actions["a229"] = a229
	table.Actions["a230"] = a230
	table.Actions["a231"] = a231
	table.Actions["a232"] = a232
	table.Actions["a233"] = a233
	table.Actions["a234"] = a234
	table.Actions["a235"] = a235
	table.Actions["a236"] = a236
	table.Actions["a237"] = a237
	table.Actions["a238"] = a238
	table.Actions["a239"] = a239
	table.Actions["a240"] = a240
	table.Actions["a241"] = a241
	table.Actions["a242"] = a242
	table.Actions["a243"] = a243
	table.Actions["a244"] = a244
	table.Actions["a245"] = a245
	table.Actions["a246"] = a246
	table.Actions["a247"] = a247
	table.Actions["a248"] = a248
	table.Actions["a249"] = a249
	table.Actions["a250"] = a250
	table.Actions["a251"] = a251
	table.Actions["a252"] = a252
	table.Actions["a253"] = a253
	table.Actions["a254"] = a254
	table.Actions["a255"] = a255
	table.Actions["a256"] = a256
	table.Actions["a257"] = a257
	table.Actions["a258"] = a258
	table.Actions["a259"] = a259
}

func a200(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a200:`blocks\(SIO005: time.Sleep\)`
func a201(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a201:`blocks\(SIO005: time.Sleep\)`
func a202(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a202:`blocks\(SIO005: time.Sleep\)`
func a203(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a203:`blocks\(SIO005: time.Sleep\)`
func a204(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a204:`blocks\(SIO005: time.Sleep\)`
func a205(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a205:`blocks\(SIO005: time.Sleep\)`
func a206(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a206:`blocks\(SIO005: time.Sleep\)`
func a207(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a207:`blocks\(SIO005: time.Sleep\)`
func a208(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a208:`blocks\(SIO005: time.Sleep\)`
func a209(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a209:`blocks\(SIO005: time.Sleep\)`
func a210(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a210:`blocks\(SIO005: time.Sleep\)`
func a211(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a211:`blocks\(SIO005: time.Sleep\)`
func a212(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a212:`blocks\(SIO005: time.Sleep\)`
func a213(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a213:`blocks\(SIO005: time.Sleep\)`
func a214(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a214:`blocks\(SIO005: time.Sleep\)`
func a215(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a215:`blocks\(SIO005: time.Sleep\)`
func a216(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a216:`blocks\(SIO005: time.Sleep\)`
func a217(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a217:`blocks\(SIO005: time.Sleep\)`
func a218(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a218:`blocks\(SIO005: time.Sleep\)`
func a219(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a219:`blocks\(SIO005: time.Sleep\)`
func a220(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a220:`blocks\(SIO005: time.Sleep\)`
func a221(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a221:`blocks\(SIO005: time.Sleep\)`
func a222(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a222:`blocks\(SIO005: time.Sleep\)`
func a223(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a223:`blocks\(SIO005: time.Sleep\)`
func a224(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a224:`blocks\(SIO005: time.Sleep\)`
func a225(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a225:`blocks\(SIO005: time.Sleep\)`
func a226(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a226:`blocks\(SIO005: time.Sleep\)`
func a227(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a227:`blocks\(SIO005: time.Sleep\)`
func a228(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a228:`blocks\(SIO005: time.Sleep\)`
func a229(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a229:`blocks\(SIO005: time.Sleep\)`
func a230(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a230:`blocks\(SIO005: time.Sleep\)`
func a231(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a231:`blocks\(SIO005: time.Sleep\)`
func a232(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a232:`blocks\(SIO005: time.Sleep\)`
func a233(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a233:`blocks\(SIO005: time.Sleep\)`
func a234(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a234:`blocks\(SIO005: time.Sleep\)`
func a235(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a235:`blocks\(SIO005: time.Sleep\)`
func a236(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a236:`blocks\(SIO005: time.Sleep\)`
func a237(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a237:`blocks\(SIO005: time.Sleep\)`
func a238(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a238:`blocks\(SIO005: time.Sleep\)`
func a239(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a239:`blocks\(SIO005: time.Sleep\)`
func a240(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a240:`blocks\(SIO005: time.Sleep\)`
func a241(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a241:`blocks\(SIO005: time.Sleep\)`
func a242(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a242:`blocks\(SIO005: time.Sleep\)`
func a243(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a243:`blocks\(SIO005: time.Sleep\)`
func a244(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a244:`blocks\(SIO005: time.Sleep\)`
func a245(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a245:`blocks\(SIO005: time.Sleep\)`
func a246(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a246:`blocks\(SIO005: time.Sleep\)`
func a247(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a247:`blocks\(SIO005: time.Sleep\)`
func a248(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a248:`blocks\(SIO005: time.Sleep\)`
func a249(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a249:`blocks\(SIO005: time.Sleep\)`
func a250(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a250:`blocks\(SIO005: time.Sleep\)`
func a251(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a251:`blocks\(SIO005: time.Sleep\)`
func a252(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a252:`blocks\(SIO005: time.Sleep\)`
func a253(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a253:`blocks\(SIO005: time.Sleep\)`
func a254(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a254:`blocks\(SIO005: time.Sleep\)`
func a255(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a255:`blocks\(SIO005: time.Sleep\)`
func a256(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a256:`blocks\(SIO005: time.Sleep\)`
func a257(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a257:`blocks\(SIO005: time.Sleep\)`
func a258(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a258:`blocks\(SIO005: time.Sleep\)`
func a259(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a259:`blocks\(SIO005: time.Sleep\)`
