// Package smtppool is a minimal stand-in for github.com/knadh/smtppool:
// New builds a pool of SMTP connections (docs/rules/libraries.md).
package smtppool

type Opt struct {
	Host     string
	Port     int
	MaxConns int
}

type Email struct {
	From, Subject string
	To            []string
	Text          []byte
}

type Pool struct{ opt Opt }

func New(o Opt) (*Pool, error)     { return &Pool{opt: o}, nil }
func (p *Pool) Send(e Email) error { return nil }
func (p *Pool) Close()             {}
