// Package web holds the pages and assets of the web remote, embedded in the
// binary so that a party without internet still gets them.
package web

import "embed"

// FS holds static/: index.html (create a room), table.html (the shared
// screen), phone.html (a player's hand) and their CSS, scripts and images.
//
//go:embed static
var FS embed.FS
