package ormfix

import (
	"net/http"

	"github.com/jmoiron/sqlx"
	"gorm.io/gorm"
)

type H struct {
	db *gorm.DB
	x  *sqlx.DB
}

func (h *H) List(w http.ResponseWriter, r *http.Request) {
	var out []string
	h.db.Where("a = ?", 1).Find(&out) // want `gorm.\(\*DB\).Find runs a query`
	_ = h.x.Select(&out, "SELECT a")  // want `sqlx.\(\*DB\).Select blocks`
	tx, _ := h.x.Beginx()             // want `Beginx blocks`
	_ = tx
}
