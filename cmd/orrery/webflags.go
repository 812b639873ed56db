package main

import (
	"crypto/tls"
	"crypto/x509"
	"log/slog"

	"github.com/spf13/pflag"
	"google.golang.org/grpc"

	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/gateway"
)

// webOptions are serve's flags for what the web server lets one HTTP client hold, and the
// names and origins it answers.
type webOptions struct {
	limits       gateway.Limits
	hosts        []string
	allowOrigins []string
}

func (o *webOptions) addFlags(f *pflag.FlagSet) {
	f.Int64Var(&o.limits.MaxBody, "web-max-body", gateway.DefaultMaxBody, "largest HTTP request body, in bytes; past it the answer is 413")
	f.DurationVar(&o.limits.ReadHeader, "web-read-header-timeout", gateway.DefaultReadHeader, "time to read an HTTP request's headers")
	f.DurationVar(&o.limits.Read, "web-read-timeout", gateway.DefaultRead, "time to read a whole HTTP request, body included")
	f.DurationVar(&o.limits.Write, "web-write-timeout", gateway.DefaultWrite, "time to write an HTTP response; on a stream (Watch, the Play bridge), each message")
	f.DurationVar(&o.limits.Idle, "web-idle-timeout", gateway.DefaultIdle, "a kept-alive HTTP connection waits this long for its next request")
	f.IntVar(&o.limits.ConnsPerAddress, "web-conns-per-address", gateway.DefaultConnsPerAddress, "open HTTP connections from one address")
	f.StringSliceVar(&o.hosts, "web-host", nil, "DNS `NAME`s the web server answers to, besides IP addresses, localhost and the TLS certificate's names (repeat or comma-separate)")
	f.StringSliceVar(&o.allowOrigins, "web-allow-origin", nil, "other `ORIGIN`s (scheme://host[:port]) whose pages may POST to the API and open seats")
}

// config is the gateway's configuration: the flags, the TLS certificate's names, and the key
// the server shares with its gateway to vouch for each HTTP client.
func (o webOptions) config(addr string, conn grpc.ClientConnInterface, logger *slog.Logger, tlsConf *tls.Config, vouch caller.Key) gateway.Config {
	names := append([]string(nil), o.hosts...)
	if tlsConf != nil {
		for _, c := range tlsConf.Certificates {
			if len(c.Certificate) == 0 {
				continue
			}
			if leaf, err := x509.ParseCertificate(c.Certificate[0]); err == nil {
				names = append(names, leaf.DNSNames...)
			}
		}
	}
	return gateway.Config{Addr: addr, Conn: conn, Logger: logger, TLS: tlsConf, Limits: o.limits, Names: names,
		AllowOrigins: o.allowOrigins, Vouch: vouch}
}
