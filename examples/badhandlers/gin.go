package badhandlers

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// Router registers the gin handlers, one of them as a func literal.
func (s *Store) Router() *gin.Engine {
	r := gin.New()
	r.GET("/gin/profile", s.GinProfile)
	r.GET("/gin/orders", s.GinOrders)
	r.POST("/gin/jobs", func(c *gin.Context) {
		job := <-s.Jobs // syncio: SIO005
		c.String(http.StatusOK, job)
	})
	r.GET("/gin/slow", func(c *gin.Context) {
		time.Sleep(time.Second) // syncio: SIO005
		c.Status(http.StatusNoContent)
	})
	r.GET("/gin/health", s.GinHealth)
	return r
}

// GinProfile is Profile again, in gin.
func (s *Store) GinProfile(c *gin.Context) {
	resp, err := http.Get(s.ProfileURL + "?id=" + c.Query("id")) // syncio: SIO001
	if err != nil {
		c.JSON(http.StatusBadGateway, gin.H{"error": err.Error()})
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	c.Data(http.StatusOK, "application/json", body)
}

// GinOrders calls the context-aware QueryContext, then throws the
// request's context away by passing context.TODO().
func (s *Store) GinOrders(c *gin.Context) {
	rows, err := s.DB.QueryContext(context.TODO(), "SELECT id FROM orders") // syncio: SIO002
	if err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	defer rows.Close()
	c.Status(http.StatusOK)
}

// GinHealth uses the request's context, c.Request.Context(), throughout.
func (s *Store) GinHealth(c *gin.Context) { // syncio: clean
	ctx := c.Request.Context()
	if err := s.DB.PingContext(ctx); err != nil {
		c.JSON(http.StatusServiceUnavailable, gin.H{"error": err.Error()})
		return
	}
	if err := s.record(ctx, "gin health"); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.Status(http.StatusNoContent)
}
