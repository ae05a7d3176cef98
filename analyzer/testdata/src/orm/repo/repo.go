// Package repo is a repository layer in another package: its facts carry
// the gorm chain to the handler's call.
package repo

import (
	"context"

	"gorm.io/gorm"
)

type User struct{ ID int }

type Users struct{ db *gorm.DB }

// ByID queries through the stored *gorm.DB with no WithContext.
func (r *Users) ByID(id int) (User, error) { // want ByID:`^blocks\(SIO001: gorm.\(\*DB\).First\)$`
	var u User
	err := r.db.Where("id = ?", id).First(&u).Error()
	return u, err
}

// ByIDCtx threads the caller's context: I/O, but no finding.
func (r *Users) ByIDCtx(ctx context.Context, id int) (User, error) { // want ByIDCtx:`^io\(gorm.\(\*DB\).First\)$`
	var u User
	err := r.db.WithContext(ctx).First(&u, id).Error()
	return u, err
}
