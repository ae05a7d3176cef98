package fixes

import (
	"context"
	"crypto/tls"
	"database/sql"
	"io"
	"net/http"
	"os/exec"

	"github.com/gin-gonic/gin"
	fiber2 "github.com/gofiber/fiber/v2"
	fiber3 "github.com/gofiber/fiber/v3"
	"github.com/labstack/echo/v4"

	"grpcdemo/pb"
)

var (
	db     *sql.DB
	client = &http.Client{}
)

func Get(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://example.com" + r.URL.Path) // want `net/http.Get blocks`
	if err != nil {
		return
	}
	defer resp.Body.Close()
}

func Post(w http.ResponseWriter, r *http.Request) {
	var body io.Reader
	resp, err := client.Post("http://example.com", "text/plain", body) // want `net/http.\(\*Client\).Post blocks`
	_, _ = resp, err
}

func Head(w http.ResponseWriter, r *http.Request) {
	var err error
	if true {
		resp, err := http.Head("http://example.com") // want `net/http.Head blocks`
		_, _ = resp, err
	}
	_ = err
}

// NoFix: forms the fix does not rewrite.
func NoFix(w http.ResponseWriter, r *http.Request) {
	var resp *http.Response
	var err error
	resp, err = http.Get("http://example.com")      // want `net/http.Get blocks`
	_, _ = http.Get("http://example.com")           // want `net/http.Get blocks`
	_, _ = http.PostForm("http://example.com", nil) // want `net/http.PostForm blocks`
	req := 1
	res, err2 := http.Get("http://example.com") // want `net/http.Get blocks`
	_, _, _, _, _ = resp, err, req, res, err2
}

func DB(w http.ResponseWriter, r *http.Request) {
	rows, err := db.Query("SELECT ?", 1) // want `database/sql.\(\*DB\).Query blocks`
	_, _ = rows, err
	_, _ = db.Exec("DELETE")                                 // want `Exec blocks`
	_ = db.QueryRow("SELECT 1")                              // want `QueryRow blocks`
	tx, _ := db.Begin()                                      // want `Begin blocks`
	_, _ = tx.Query("SELECT 1")                              // want `database/sql.\(\*Tx\).Query blocks`
	_ = db.Ping()                                            // want `Ping blocks`
	st, _ := db.Prepare("SELECT 1")                          // want `Prepare blocks`
	_, _ = st.Exec()                                         // want `database/sql.\(\*Stmt\).Exec blocks`
	_ = exec.Command("ls", "-l").Run()                       // want `os/exec.Command starts` `while transaction tx \(begun at fixes.go:64\) is open.*\(SIO007\)$` `while transaction tx \(begun at fixes.go:64\) is open.*\(SIO007\)$`
	_, _ = http.NewRequest(http.MethodGet, "/", nil)         // want `NewRequest builds` `while transaction tx \(begun at fixes.go:64\) is open.*\(SIO007\)$`
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `is given context.Background\(\)`
	_, _ = db.ExecContext(context.TODO(), "SELECT 1")        // want `is given context.TODO\(\)`
}

func Gin(c *gin.Context) {
	_ = db.Ping()                                            // want `Ping blocks`
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `is given context.Background\(\)`
	_, _ = db.QueryContext(c, "SELECT 1")                    // want `is given c \(a \*gin.Context`
}

type Greeter struct{ pb.UnimplementedGreeterServer }

func (g *Greeter) SayHello(ctx context.Context, req *pb.HelloRequest) (*pb.HelloReply, error) {
	_, err := db.Exec("UPDATE") // want `Exec blocks`
	return nil, err
}

// Shadowed hides the request: no fix is offered.
func Shadowed(w http.ResponseWriter, r *http.Request) {
	{
		r := 1
		_ = r
		_ = db.Ping() // want `Ping blocks`
	}
}

func More(w http.ResponseWriter, r *http.Request) {
	var tc *tls.Conn
	_ = tc.Handshake() // want `Handshake blocks`
	tx, _ := db.BeginTx(r.Context(), nil)
	var st *sql.Stmt
	_ = tx.Stmt(st)                               // want `database/sql.\(\*Tx\).Stmt blocks`
	_, _ = st.Query(1)                            // want `database/sql.\(\*Stmt\).Query blocks`
	resp, err := client.Get("http://example.com") // want `net/http.\(\*Client\).Get blocks` `while transaction tx \(begun at fixes.go:100\) is open.*\(SIO007\)$`
	_, _ = resp, err
}

func Echo(c echo.Context) error {
	return db.Ping() // want `Ping blocks`
}

func Fiber2(c *fiber2.Ctx) error {
	return db.Ping() // want `Ping blocks`
}

func Fiber3(c fiber3.Ctx) error {
	return db.Ping() // want `Ping blocks`
}

// routes builds the engine with gin's default ContextWithFallback =
// false, so c is never cancelled and passing it is a finding here.
func routes() *gin.Engine {
	r := gin.New()
	r.GET("/", Gin)
	return r
}
