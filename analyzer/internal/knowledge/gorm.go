package knowledge

import (
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// Import paths of gorm (v2 and v1), recognised by path and type name.
const (
	PathGorm   = "gorm.io/gorm"
	PathGormV1 = "github.com/jinzhu/gorm"
)

// GormReceiver returns the gorm import path when fn is a method of
// *gorm.DB (v2 or v1), else "".
func GormReceiver(fn *types.Func) string {
	recv := named.Recv(fn)
	if recv == nil {
		return ""
	}
	for _, path := range []string{PathGorm, PathGormV1} {
		if named.Is(recv.Type(), true, path, "DB") {
			return path
		}
	}
	return ""
}

// GormAssocReceiver returns the gorm import path when fn is a method of
// *gorm.Association (v2 or v1), else "".
func GormAssocReceiver(fn *types.Func) string {
	recv := named.Recv(fn)
	if recv == nil {
		return ""
	}
	for _, path := range []string{PathGorm, PathGormV1} {
		if named.Is(recv.Type(), true, path, "Association") {
			return path
		}
	}
	return ""
}
