// Package web is the browser app of the arena: plain JavaScript modules, styles and the
// vendored three.js, embedded in the binary. It is a client of the HTTP/JSON gateway
// (service/gateway) and nothing else: it draws what the API sends and sends back chosen
// actions, never deciding legality itself.
package web

import "embed"

// Files are the app's files, index.html at the root.
//
//go:embed index.html *.js *.css games vendor
var Files embed.FS
