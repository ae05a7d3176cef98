package before

import (
	"io"
	"net/http"

	"github.com/gin-gonic/gin"
)

// Proxy serves a gin route that calls the profile service.
type Proxy struct {
	Client     *http.Client
	ProfileURL string
}

// Profile gives the call c as its context. *gin.Context satisfies
// context.Context, but with the engine's default ContextWithFallback
// (false) its Done channel is nil: when the client hangs up, the call goes
// on until the profile service answers.
func (p *Proxy) Profile(c *gin.Context) {
	req, err := http.NewRequestWithContext(c, http.MethodGet, p.ProfileURL+"/profiles/"+c.Param("id"), nil) // syncio: SIO002
	if err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error(), "code": "internal"})
		return
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		c.JSON(http.StatusBadGateway, gin.H{"error": "profile service unavailable", "code": "upstream"})
		return
	}
	defer resp.Body.Close()
	c.Status(resp.StatusCode)
	_, _ = io.Copy(c.Writer, resp.Body)
}

// Routes builds the engine with gin's defaults: ContextWithFallback stays
// false, so c is never cancelled.
func Routes(p *Proxy) *gin.Engine {
	e := gin.New()
	e.GET("/profiles/:id", p.Profile)
	return e
}
