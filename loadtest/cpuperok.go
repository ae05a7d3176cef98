package loadtest

import (
	"time"

	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/scrape"
)

// kids are the child processes whose CPU the sampler reads by PID.
func (c Config) kids() []kid {
	var k []kid
	if c.APIPID > 0 {
		k = append(k, kid{report.ProcAPI, c.APIPID})
	}
	if c.StoragePID > 0 {
		k = append(k, kid{report.ProcStorage, c.StoragePID})
	}
	return k
}

// stepCPU is st's CPU per OK response for each process that served it.
// The API child's CPU is read by PID, as the storage child's and the
// generator's are, at the same instants; the scrape of its /metrics is
// the fallback (an API the lab did not start, or no /proc), which counts
// in whole scrapes.
func stepCPU(cfg Config, self *rssSampler, st report.Step, noMetrics bool) report.CPUPerOK {
	var c report.CPUPerOK
	from, to := st.WindowStart, st.WindowEnd
	if cfg.ScrapeInterval <= 0 {
		// The sampler never ran; the scrape neither.
		why := "-scrape 0: no process's CPU was sampled"
		for _, p := range []string{report.ProcAPI, report.ProcStorage, report.ProcGenerator} {
			c.Measured(p, nil, why)
		}
		c.Derive(st.OK)
		return c
	}
	gen, why := self.cpuSeconds(report.ProcGenerator, from, to)
	c.Measured(report.ProcGenerator, gen, why)

	var api *float64
	switch {
	case cfg.InProcess:
		why = "the API ran in the load generator's process (-api in-process): its CPU is in gen's"
	case cfg.APIPID > 0:
		api, why = self.cpuSeconds(report.ProcAPI, from, to)
		c.APIFrom = "proc"
	}
	if api == nil && !cfg.InProcess {
		switch {
		case st.ServerCPUCores != nil:
			api, c.APIFrom = coresOver(*st.ServerCPUCores, time.Duration(st.DurationS*float64(time.Second))), "metrics"
		case cfg.APIPID > 0:
			// why is the PID's
		case noMetrics:
			why = "the API's /metrics is not scraped"
		case st.ServerMissing != "":
			why = st.ServerMissing
		default:
			why = "no two samples of " + scrape.MetricCPU + " from the API's /metrics in the window"
		}
	}
	if api == nil {
		c.APIFrom = ""
	}
	c.Measured(report.ProcAPI, api, why)

	var storage *float64
	switch {
	case cfg.StoragePID > 0:
		storage, why = self.cpuSeconds(report.ProcStorage, from, to)
	case cfg.NoStorageCPU != "":
		why = cfg.NoStorageCPU
	case cfg.InProcess:
		why = "the blob fake ran in the load generator's process (-api in-process): its CPU is in gen's"
	default:
		why = "the storage is not a process the lab started: its CPU is not seen here"
	}
	c.Measured(report.ProcStorage, storage, why)
	c.Derive(st.OK)
	return c
}

// coresOver is the CPU seconds of cores held over d.
func coresOver(cores float64, d time.Duration) *float64 {
	v := cores * d.Seconds()
	return &v
}
