package knowledge

import "testing"

func TestTestSupport(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]bool{
		"github.com/navidrome/navidrome/tests": true,
		"example.com/app/internal/mocks":       true,
		"example.com/app/store/mock_store":     true,
		"example.com/app/storemocks":           true,
		"example.com/app/testutil":             true,
		"example.com/app/latest":               false,
		"example.com/app/persistence":          false,
		"example.com/app/contest":              false,
		"example.com/app/testimonials":         false,
	} {
		if got := TestSupport(path); got != want {
			t.Errorf("TestSupport(%q) = %v, want %v", path, got, want)
		}
	}
	for name, want := range map[string]bool{
		"MockDataStore": true, "FakeClock": true, "mockStore": true, "Stub": true,
		"Mockingbird": false, "Faker": false, "Stubborn": false, "SQLStore": false,
	} {
		if got := TestDouble(name); got != want {
			t.Errorf("TestDouble(%q) = %v, want %v", name, got, want)
		}
	}
}
