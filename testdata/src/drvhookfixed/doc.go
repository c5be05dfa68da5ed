// Package drvhookfixed is drvhook with SetWindow building a new limiter
// over a new counter (limiter.go:30-34) instead of reconfiguring the
// counter in use: the package calls Config only from NewLimiter, before
// a limiter is shared, as httprate calls its LimitCounter's Config. Config
// is then a construction hook (static/driver constructionHook): no driver
// calls it beside Inc, and nothing should be reported.
package drvhookfixed
