package driver

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts the CPU profile that o asks for and returns the
// function that ends it. The driver profiles its own run rather than handing
// the flags to singlechecker, whose load keeps the standard library's bodies
// and the default GC target: a profile of that would measure another
// program.
func startProfiles(o options) (stop func() error, err error) {
	if o.cpuprofile == "" {
		return func() error { return nil }, nil
	}
	cpu, err := os.Create(o.cpuprofile)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		cpu.Close()
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := cpu.Close(); err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		return nil
	}, nil
}

// writeHeapProfile writes the heap profile to file. It is called once the
// analysis is done while the loaded program is still referenced, so that
// its in-use view shows what the peak holds, not an emptied heap.
func writeHeapProfile(file string) error {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("-memprofile: %w", err)
	}
	runtime.GC() // the live heap as of now, not as of the last cycle
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("-memprofile: %w", err)
	}
	return f.Close()
}
