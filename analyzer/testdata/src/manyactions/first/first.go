// want package:`convs\(202\)`
// Package first stores 200 of the settings actions (generated: one line
// each, every one waiting, so that each is a binding the join can follow).
package first

import (
	"net/http"
	"time"

	"manyactions/table"
)

func init() {
	table.Actions["a0"] = a0
	table.Actions["a1"] = a1
	table.Actions["a2"] = a2
	table.Actions["a3"] = a3
	table.Actions["a4"] = a4
	table.Actions["a5"] = a5
	table.Actions["a6"] = a6
	table.Actions["a7"] = a7
	table.Actions["a8"] = a8
	table.Actions["a9"] = a9
	table.Actions["a10"] = a10
	table.Actions["a11"] = a11
	table.Actions["a12"] = a12
	table.Actions["a13"] = a13
	table.Actions["a14"] = a14
	table.Actions["a15"] = a15
	table.Actions["a16"] = a16
	table.Actions["a17"] = a17
	table.Actions["a18"] = a18
	table.Actions["a19"] = a19
	table.Actions["a20"] = a20
	table.Actions["a21"] = a21
	table.Actions["a22"] = a22
	table.Actions["a23"] = a23
	table.Actions["a24"] = a24
	table.Actions["a25"] = a25
	table.Actions["a26"] = a26
	table.Actions["a27"] = a27
	table.Actions["a28"] = a28
	table.Actions["a29"] = a29
	table.Actions["a30"] = a30
	table.Actions["a31"] = a31
	table.Actions["a32"] = a32
	table.Actions["a33"] = a33
	table.Actions["a34"] = a34
	table.Actions["a35"] = a35
	table.Actions["a36"] = a36
	table.Actions["a37"] = a37
	table.Actions["a38"] = a38
	table.Actions["a39"] = a39
	table.Actions["a40"] = a40
	table.Actions["a41"] = a41
	table.Actions["a42"] = a42
	table.Actions["a43"] = a43
	table.Actions["a44"] = a44
	table.Actions["a45"] = a45
	table.Actions["a46"] = a46
	table.Actions["a47"] = a47
	table.Actions["a48"] = a48
	table.Actions["a49"] = a49
	table.Actions["a50"] = a50
	table.Actions["a51"] = a51
	table.Actions["a52"] = a52
	table.Actions["a53"] = a53
	table.Actions["a54"] = a54
	table.Actions["a55"] = a55
	table.Actions["a56"] = a56
	table.Actions["a57"] = a57
	table.Actions["a58"] = a58
	table.Actions["a59"] = a59
	table.Actions["a60"] = a60
	table.Actions["a61"] = a61
	table.Actions["a62"] = a62
	table.Actions["a63"] = a63
	table.Actions["a64"] = a64
	table.Actions["a65"] = a65
	table.Actions["a66"] = a66
	table.Actions["a67"] = a67
	table.Actions["a68"] = a68
	table.Actions["a69"] = a69
	table.Actions["a70"] = a70
	table.Actions["a71"] = a71
	table.Actions["a72"] = a72
	table.Actions["a73"] = a73
	table.Actions["a74"] = a74
	table.Actions["a75"] = a75
	table.Actions["a76"] = a76
	table.Actions["a77"] = a77
	table.Actions["a78"] = a78
	table.Actions["a79"] = a79
	table.Actions["a80"] = a80
	table.Actions["a81"] = a81
	table.Actions["a82"] = a82
	table.Actions["a83"] = a83
	table.Actions["a84"] = a84
	table.Actions["a85"] = a85
	table.Actions["a86"] = a86
	table.Actions["a87"] = a87
	table.Actions["a88"] = a88
	table.Actions["a89"] = a89
	table.Actions["a90"] = a90
	table.Actions["a91"] = a91
	table.Actions["a92"] = a92
	table.Actions["a93"] = a93
	table.Actions["a94"] = a94
	table.Actions["a95"] = a95
	table.Actions["a96"] = a96
	table.Actions["a97"] = a97
	table.Actions["a98"] = a98
	table.Actions["a99"] = a99
	table.Actions["a100"] = a100
	table.Actions["a101"] = a101
	table.Actions["a102"] = a102
	table.Actions["a103"] = a103
	table.Actions["a104"] = a104
	table.Actions["a105"] = a105
	table.Actions["a106"] = a106
	table.Actions["a107"] = a107
	table.Actions["a108"] = a108
	table.Actions["a109"] = a109
	table.Actions["a110"] = a110
	table.Actions["a111"] = a111
	table.Actions["a112"] = a112
	table.Actions["a113"] = a113
	table.Actions["a114"] = a114
	table.Actions["a115"] = a115
	table.Actions["a116"] = a116
	table.Actions["a117"] = a117
	table.Actions["a118"] = a118
	table.Actions["a119"] = a119
	table.Actions["a120"] = a120
	table.Actions["a121"] = a121
	table.Actions["a122"] = a122
	table.Actions["a123"] = a123
	table.Actions["a124"] = a124
	table.Actions["a125"] = a125
	table.Actions["a126"] = a126
	table.Actions["a127"] = a127
	table.Actions["a128"] = a128
	table.Actions["a129"] = a129
	table.Actions["a130"] = a130
	table.Actions["a131"] = a131
	table.Actions["a132"] = a132
	table.Actions["a133"] = a133
	table.Actions["a134"] = a134
	table.Actions["a135"] = a135
	table.Actions["a136"] = a136
	table.Actions["a137"] = a137
	table.Actions["a138"] = a138
	table.Actions["a139"] = a139
	table.Actions["a140"] = a140
	table.Actions["a141"] = a141
	table.Actions["a142"] = a142
	table.Actions["a143"] = a143
	table.Actions["a144"] = a144
	table.Actions["a145"] = a145
	table.Actions["a146"] = a146
	table.Actions["a147"] = a147
	table.Actions["a148"] = a148
	table.Actions["a149"] = a149
	table.Actions["a150"] = a150
	table.Actions["a151"] = a151
	table.Actions["a152"] = a152
	table.Actions["a153"] = a153
	table.Actions["a154"] = a154
	table.Actions["a155"] = a155
	table.Actions["a156"] = a156
	table.Actions["a157"] = a157
	table.Actions["a158"] = a158
	table.Actions["a159"] = a159
	table.Actions["a160"] = a160
	table.Actions["a161"] = a161
	table.Actions["a162"] = a162
	table.Actions["a163"] = a163
	table.Actions["a164"] = a164
	table.Actions["a165"] = a165
	table.Actions["a166"] = a166
	table.Actions["a167"] = a167
	table.Actions["a168"] = a168
	table.Actions["a169"] = a169
	table.Actions["a170"] = a170
	table.Actions["a171"] = a171
	table.Actions["a172"] = a172
	table.Actions["a173"] = a173
	table.Actions["a174"] = a174
	table.Actions["a175"] = a175
	table.Actions["a176"] = a176
	table.Actions["a177"] = a177
	table.Actions["a178"] = a178
	table.Actions["a179"] = a179
	table.Actions["a180"] = a180
	table.Actions["a181"] = a181
	table.Actions["a182"] = a182
	table.Actions["a183"] = a183
	table.Actions["a184"] = a184
	table.Actions["a185"] = a185
	table.Actions["a186"] = a186
	table.Actions["a187"] = a187
	table.Actions["a188"] = a188
	table.Actions["a189"] = a189
	table.Actions["a190"] = a190
	table.Actions["a191"] = a191
	table.Actions["a192"] = a192
	table.Actions["a193"] = a193
	table.Actions["a194"] = a194
	table.Actions["a195"] = a195
	table.Actions["a196"] = a196
	table.Actions["a197"] = a197
	table.Actions["a198"] = a198
	table.Actions["a199"] = a199
}

func a0(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a0:`blocks\(SIO005: time.Sleep\)`
func a1(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a1:`blocks\(SIO005: time.Sleep\)`
func a2(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a2:`blocks\(SIO005: time.Sleep\)`
func a3(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a3:`blocks\(SIO005: time.Sleep\)`
func a4(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a4:`blocks\(SIO005: time.Sleep\)`
func a5(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a5:`blocks\(SIO005: time.Sleep\)`
func a6(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a6:`blocks\(SIO005: time.Sleep\)`
func a7(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a7:`blocks\(SIO005: time.Sleep\)`
func a8(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a8:`blocks\(SIO005: time.Sleep\)`
func a9(w http.ResponseWriter)   { time.Sleep(time.Millisecond) } // want a9:`blocks\(SIO005: time.Sleep\)`
func a10(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a10:`blocks\(SIO005: time.Sleep\)`
func a11(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a11:`blocks\(SIO005: time.Sleep\)`
func a12(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a12:`blocks\(SIO005: time.Sleep\)`
func a13(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a13:`blocks\(SIO005: time.Sleep\)`
func a14(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a14:`blocks\(SIO005: time.Sleep\)`
func a15(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a15:`blocks\(SIO005: time.Sleep\)`
func a16(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a16:`blocks\(SIO005: time.Sleep\)`
func a17(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a17:`blocks\(SIO005: time.Sleep\)`
func a18(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a18:`blocks\(SIO005: time.Sleep\)`
func a19(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a19:`blocks\(SIO005: time.Sleep\)`
func a20(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a20:`blocks\(SIO005: time.Sleep\)`
func a21(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a21:`blocks\(SIO005: time.Sleep\)`
func a22(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a22:`blocks\(SIO005: time.Sleep\)`
func a23(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a23:`blocks\(SIO005: time.Sleep\)`
func a24(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a24:`blocks\(SIO005: time.Sleep\)`
func a25(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a25:`blocks\(SIO005: time.Sleep\)`
func a26(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a26:`blocks\(SIO005: time.Sleep\)`
func a27(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a27:`blocks\(SIO005: time.Sleep\)`
func a28(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a28:`blocks\(SIO005: time.Sleep\)`
func a29(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a29:`blocks\(SIO005: time.Sleep\)`
func a30(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a30:`blocks\(SIO005: time.Sleep\)`
func a31(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a31:`blocks\(SIO005: time.Sleep\)`
func a32(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a32:`blocks\(SIO005: time.Sleep\)`
func a33(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a33:`blocks\(SIO005: time.Sleep\)`
func a34(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a34:`blocks\(SIO005: time.Sleep\)`
func a35(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a35:`blocks\(SIO005: time.Sleep\)`
func a36(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a36:`blocks\(SIO005: time.Sleep\)`
func a37(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a37:`blocks\(SIO005: time.Sleep\)`
func a38(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a38:`blocks\(SIO005: time.Sleep\)`
func a39(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a39:`blocks\(SIO005: time.Sleep\)`
func a40(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a40:`blocks\(SIO005: time.Sleep\)`
func a41(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a41:`blocks\(SIO005: time.Sleep\)`
func a42(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a42:`blocks\(SIO005: time.Sleep\)`
func a43(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a43:`blocks\(SIO005: time.Sleep\)`
func a44(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a44:`blocks\(SIO005: time.Sleep\)`
func a45(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a45:`blocks\(SIO005: time.Sleep\)`
func a46(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a46:`blocks\(SIO005: time.Sleep\)`
func a47(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a47:`blocks\(SIO005: time.Sleep\)`
func a48(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a48:`blocks\(SIO005: time.Sleep\)`
func a49(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a49:`blocks\(SIO005: time.Sleep\)`
func a50(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a50:`blocks\(SIO005: time.Sleep\)`
func a51(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a51:`blocks\(SIO005: time.Sleep\)`
func a52(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a52:`blocks\(SIO005: time.Sleep\)`
func a53(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a53:`blocks\(SIO005: time.Sleep\)`
func a54(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a54:`blocks\(SIO005: time.Sleep\)`
func a55(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a55:`blocks\(SIO005: time.Sleep\)`
func a56(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a56:`blocks\(SIO005: time.Sleep\)`
func a57(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a57:`blocks\(SIO005: time.Sleep\)`
func a58(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a58:`blocks\(SIO005: time.Sleep\)`
func a59(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a59:`blocks\(SIO005: time.Sleep\)`
func a60(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a60:`blocks\(SIO005: time.Sleep\)`
func a61(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a61:`blocks\(SIO005: time.Sleep\)`
func a62(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a62:`blocks\(SIO005: time.Sleep\)`
func a63(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a63:`blocks\(SIO005: time.Sleep\)`
func a64(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a64:`blocks\(SIO005: time.Sleep\)`
func a65(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a65:`blocks\(SIO005: time.Sleep\)`
func a66(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a66:`blocks\(SIO005: time.Sleep\)`
func a67(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a67:`blocks\(SIO005: time.Sleep\)`
func a68(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a68:`blocks\(SIO005: time.Sleep\)`
func a69(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a69:`blocks\(SIO005: time.Sleep\)`
func a70(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a70:`blocks\(SIO005: time.Sleep\)`
func a71(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a71:`blocks\(SIO005: time.Sleep\)`
func a72(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a72:`blocks\(SIO005: time.Sleep\)`
func a73(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a73:`blocks\(SIO005: time.Sleep\)`
func a74(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a74:`blocks\(SIO005: time.Sleep\)`
func a75(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a75:`blocks\(SIO005: time.Sleep\)`
func a76(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a76:`blocks\(SIO005: time.Sleep\)`
func a77(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a77:`blocks\(SIO005: time.Sleep\)`
func a78(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a78:`blocks\(SIO005: time.Sleep\)`
func a79(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a79:`blocks\(SIO005: time.Sleep\)`
func a80(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a80:`blocks\(SIO005: time.Sleep\)`
func a81(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a81:`blocks\(SIO005: time.Sleep\)`
func a82(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a82:`blocks\(SIO005: time.Sleep\)`
func a83(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a83:`blocks\(SIO005: time.Sleep\)`
func a84(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a84:`blocks\(SIO005: time.Sleep\)`
func a85(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a85:`blocks\(SIO005: time.Sleep\)`
func a86(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a86:`blocks\(SIO005: time.Sleep\)`
func a87(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a87:`blocks\(SIO005: time.Sleep\)`
func a88(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a88:`blocks\(SIO005: time.Sleep\)`
func a89(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a89:`blocks\(SIO005: time.Sleep\)`
func a90(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a90:`blocks\(SIO005: time.Sleep\)`
func a91(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a91:`blocks\(SIO005: time.Sleep\)`
func a92(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a92:`blocks\(SIO005: time.Sleep\)`
func a93(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a93:`blocks\(SIO005: time.Sleep\)`
func a94(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a94:`blocks\(SIO005: time.Sleep\)`
func a95(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a95:`blocks\(SIO005: time.Sleep\)`
func a96(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a96:`blocks\(SIO005: time.Sleep\)`
func a97(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a97:`blocks\(SIO005: time.Sleep\)`
func a98(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a98:`blocks\(SIO005: time.Sleep\)`
func a99(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want a99:`blocks\(SIO005: time.Sleep\)`
func a100(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a100:`blocks\(SIO005: time.Sleep\)`
func a101(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a101:`blocks\(SIO005: time.Sleep\)`
func a102(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a102:`blocks\(SIO005: time.Sleep\)`
func a103(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a103:`blocks\(SIO005: time.Sleep\)`
func a104(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a104:`blocks\(SIO005: time.Sleep\)`
func a105(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a105:`blocks\(SIO005: time.Sleep\)`
func a106(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a106:`blocks\(SIO005: time.Sleep\)`
func a107(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a107:`blocks\(SIO005: time.Sleep\)`
func a108(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a108:`blocks\(SIO005: time.Sleep\)`
func a109(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a109:`blocks\(SIO005: time.Sleep\)`
func a110(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a110:`blocks\(SIO005: time.Sleep\)`
func a111(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a111:`blocks\(SIO005: time.Sleep\)`
func a112(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a112:`blocks\(SIO005: time.Sleep\)`
func a113(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a113:`blocks\(SIO005: time.Sleep\)`
func a114(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a114:`blocks\(SIO005: time.Sleep\)`
func a115(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a115:`blocks\(SIO005: time.Sleep\)`
func a116(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a116:`blocks\(SIO005: time.Sleep\)`
func a117(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a117:`blocks\(SIO005: time.Sleep\)`
func a118(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a118:`blocks\(SIO005: time.Sleep\)`
func a119(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a119:`blocks\(SIO005: time.Sleep\)`
func a120(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a120:`blocks\(SIO005: time.Sleep\)`
func a121(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a121:`blocks\(SIO005: time.Sleep\)`
func a122(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a122:`blocks\(SIO005: time.Sleep\)`
func a123(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a123:`blocks\(SIO005: time.Sleep\)`
func a124(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a124:`blocks\(SIO005: time.Sleep\)`
func a125(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a125:`blocks\(SIO005: time.Sleep\)`
func a126(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a126:`blocks\(SIO005: time.Sleep\)`
func a127(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a127:`blocks\(SIO005: time.Sleep\)`
func a128(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a128:`blocks\(SIO005: time.Sleep\)`
func a129(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a129:`blocks\(SIO005: time.Sleep\)`
func a130(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a130:`blocks\(SIO005: time.Sleep\)`
func a131(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a131:`blocks\(SIO005: time.Sleep\)`
func a132(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a132:`blocks\(SIO005: time.Sleep\)`
func a133(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a133:`blocks\(SIO005: time.Sleep\)`
func a134(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a134:`blocks\(SIO005: time.Sleep\)`
func a135(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a135:`blocks\(SIO005: time.Sleep\)`
func a136(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a136:`blocks\(SIO005: time.Sleep\)`
func a137(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a137:`blocks\(SIO005: time.Sleep\)`
func a138(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a138:`blocks\(SIO005: time.Sleep\)`
func a139(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a139:`blocks\(SIO005: time.Sleep\)`
func a140(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a140:`blocks\(SIO005: time.Sleep\)`
func a141(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a141:`blocks\(SIO005: time.Sleep\)`
func a142(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a142:`blocks\(SIO005: time.Sleep\)`
func a143(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a143:`blocks\(SIO005: time.Sleep\)`
func a144(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a144:`blocks\(SIO005: time.Sleep\)`
func a145(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a145:`blocks\(SIO005: time.Sleep\)`
func a146(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a146:`blocks\(SIO005: time.Sleep\)`
func a147(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a147:`blocks\(SIO005: time.Sleep\)`
func a148(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a148:`blocks\(SIO005: time.Sleep\)`
func a149(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a149:`blocks\(SIO005: time.Sleep\)`
func a150(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a150:`blocks\(SIO005: time.Sleep\)`
func a151(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a151:`blocks\(SIO005: time.Sleep\)`
func a152(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a152:`blocks\(SIO005: time.Sleep\)`
func a153(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a153:`blocks\(SIO005: time.Sleep\)`
func a154(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a154:`blocks\(SIO005: time.Sleep\)`
func a155(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a155:`blocks\(SIO005: time.Sleep\)`
func a156(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a156:`blocks\(SIO005: time.Sleep\)`
func a157(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a157:`blocks\(SIO005: time.Sleep\)`
func a158(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a158:`blocks\(SIO005: time.Sleep\)`
func a159(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a159:`blocks\(SIO005: time.Sleep\)`
func a160(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a160:`blocks\(SIO005: time.Sleep\)`
func a161(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a161:`blocks\(SIO005: time.Sleep\)`
func a162(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a162:`blocks\(SIO005: time.Sleep\)`
func a163(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a163:`blocks\(SIO005: time.Sleep\)`
func a164(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a164:`blocks\(SIO005: time.Sleep\)`
func a165(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a165:`blocks\(SIO005: time.Sleep\)`
func a166(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a166:`blocks\(SIO005: time.Sleep\)`
func a167(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a167:`blocks\(SIO005: time.Sleep\)`
func a168(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a168:`blocks\(SIO005: time.Sleep\)`
func a169(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a169:`blocks\(SIO005: time.Sleep\)`
func a170(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a170:`blocks\(SIO005: time.Sleep\)`
func a171(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a171:`blocks\(SIO005: time.Sleep\)`
func a172(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a172:`blocks\(SIO005: time.Sleep\)`
func a173(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a173:`blocks\(SIO005: time.Sleep\)`
func a174(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a174:`blocks\(SIO005: time.Sleep\)`
func a175(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a175:`blocks\(SIO005: time.Sleep\)`
func a176(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a176:`blocks\(SIO005: time.Sleep\)`
func a177(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a177:`blocks\(SIO005: time.Sleep\)`
func a178(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a178:`blocks\(SIO005: time.Sleep\)`
func a179(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a179:`blocks\(SIO005: time.Sleep\)`
func a180(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a180:`blocks\(SIO005: time.Sleep\)`
func a181(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a181:`blocks\(SIO005: time.Sleep\)`
func a182(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a182:`blocks\(SIO005: time.Sleep\)`
func a183(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a183:`blocks\(SIO005: time.Sleep\)`
func a184(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a184:`blocks\(SIO005: time.Sleep\)`
func a185(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a185:`blocks\(SIO005: time.Sleep\)`
func a186(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a186:`blocks\(SIO005: time.Sleep\)`
func a187(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a187:`blocks\(SIO005: time.Sleep\)`
func a188(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a188:`blocks\(SIO005: time.Sleep\)`
func a189(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a189:`blocks\(SIO005: time.Sleep\)`
func a190(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a190:`blocks\(SIO005: time.Sleep\)`
func a191(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a191:`blocks\(SIO005: time.Sleep\)`
func a192(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a192:`blocks\(SIO005: time.Sleep\)`
func a193(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a193:`blocks\(SIO005: time.Sleep\)`
func a194(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a194:`blocks\(SIO005: time.Sleep\)`
func a195(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a195:`blocks\(SIO005: time.Sleep\)`
func a196(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a196:`blocks\(SIO005: time.Sleep\)`
func a197(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a197:`blocks\(SIO005: time.Sleep\)`
func a198(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a198:`blocks\(SIO005: time.Sleep\)`
func a199(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want a199:`blocks\(SIO005: time.Sleep\)`
