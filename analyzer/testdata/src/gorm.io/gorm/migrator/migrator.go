// Package migrator reduces gorm.io/gorm/migrator: its methods query
// through the DB the Migrator stores, a chain rooted at a field.
package migrator

import "gorm.io/gorm"

type Migrator struct{ DB *gorm.DB }

func (m Migrator) AutoMigrate(dst ...any) error { return m.DB.Create(dst).Error() }
func (m Migrator) HasTable(dst any) bool {
	var n int64
	m.DB.Raw("SELECT count(*) FROM information_schema.tables WHERE table_name = ?", dst).Count(&n)
	return n > 0
}
func (m Migrator) ColumnTypes(dst any) ([]string, error) {
	var cols []string
	return cols, m.DB.Raw("SELECT * FROM t LIMIT 1").Scan(&cols).Error()
}
func (m Migrator) GetTypeAliases(string) []string { return nil }
