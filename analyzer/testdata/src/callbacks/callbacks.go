// want package:`convs\(2\)`

// Package callbacks passes func literals and function values to helpers
// that call them on the spot, store them, or start them with go.
package callbacks

import (
	"database/sql"
	"net/http"
	"strconv"
	"time"

	"callbacks/lib"
	"github.com/gin-gonic/gin"
	"gorm.io/gorm"
)

var (
	db  *sql.DB
	gdb *gorm.DB
)

// withParam parses a path parameter and hands it to fn: about 19 handlers
// of one real service go through a helper like it.
func withParam(c *gin.Context, name string, fn func(id uint)) { // want withParam:`^calls\(2\)$`
	id, err := strconv.Atoi(c.Request.URL.Query().Get(name))
	if err != nil {
		return
	}
	fn(uint(id))
}

func GetUser(c *gin.Context) {
	withParam(c, "id", func(id uint) {
		_, _ = db.Query("SELECT name FROM users WHERE id = ?", id) // want `^database/sql.\(\*DB\).Query blocks without the request context`
	})
}

func Cached(c *gin.Context) {
	_, _ = lib.Get("k", func() (string, error) {
		_, err := http.Get("http://upstream/k") // want `^net/http.Get blocks`
		return "", err
	})
}

type svc struct{}

func (svc) fetch() (string, error) { // want fetch:`blocks\(SIO001: net/http.Get\)`
	_, err := http.Get("http://upstream")
	return "", err
}

// Retried passes a method value through a helper that forwards it.
func Retried(c *gin.Context) {
	var s svc
	_, _ = lib.Retry(3, s.fetch) // want `^Retried calls callbacks.svc.fetch → net/http.Get, which blocks`
}

// Tx runs its work inside gorm's Transaction, which calls it at once.
func Tx(c *gin.Context) {
	_ = gdb.WithContext(c.Request.Context()).Transaction(func(tx *gorm.DB) error {
		time.Sleep(time.Millisecond) // want `^time.Sleep waits` `while transaction tx \(gorm Transaction at callbacks.go:61\) is open.*\(SIO007\)$`
		return nil
	})
}

// Later stores or starts its functions: nothing runs on the path.
func Later(c *gin.Context) {
	lib.Register(func() { _, _ = http.Get("http://later") })
	lib.Async(func() { time.Sleep(time.Second) })
}
