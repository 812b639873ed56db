// Package metrics holds the arena's Prometheus series, shared by the server and its matches.
package metrics

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the arena's Prometheus series. They are registered on the registry the caller
// passes, so tests and several servers in one process do not collide.
type Metrics struct {
	MatchesStarted  *prometheus.CounterVec
	MatchesFinished *prometheus.CounterVec
	MatchesRunning  prometheus.Gauge
	Decisions       *prometheus.CounterVec
	Rejects         *prometheus.CounterVec
	Timeouts        *prometheus.CounterVec
	DecisionLatency *prometheus.HistogramVec
	TickLateness    *prometheus.HistogramVec
}

// New creates the series and registers them on reg (nil: not registered).
func New(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		MatchesStarted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "orrery_matches_started_total", Help: "Matches created or resumed.",
		}, []string{"game"}),
		MatchesFinished: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "orrery_matches_finished_total", Help: "Matches finished, by end reason.",
		}, []string{"game", "reason"}),
		MatchesRunning: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "orrery_matches_running", Help: "Matches in progress.",
		}),
		Decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "orrery_decisions_total", Help: "Actions applied, answered by a seat or by the timeout policy.",
		}, []string{"game"}),
		Rejects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "orrery_rejects_total", Help: "Answers rejected, by reject code.",
		}, []string{"game", "code"}),
		Timeouts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "orrery_timeouts_total", Help: "Decisions that ran out of time.",
		}, []string{"game"}),
		DecisionLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "orrery_decision_latency_seconds",
			Help:    "Time from a decision being issued to its accepted answer.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10), // 100µs .. 26s
		}, []string{"game"}),
		TickLateness: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "orrery_tick_lateness_seconds",
			Help:    "How late a wall-clock game's advance fired after it was due (tick jitter).",
			Buckets: prometheus.ExponentialBuckets(0.00005, 2, 14), // 50µs .. 0.4s
		}, []string{"game"}),
	}
	if reg != nil {
		reg.MustRegister(m.MatchesStarted, m.MatchesFinished, m.MatchesRunning, m.Decisions, m.Rejects, m.Timeouts, m.DecisionLatency, m.TickLateness)
	}
	return m
}
