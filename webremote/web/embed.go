// Package web holds the pages and assets of the web remote, embedded in the
// binary so that a party without internet still gets them.
package web

import "embed"

// FS holds static/: index.html (create a room), table.html (the shared
// screen), phone.html (a player's hand) and their CSS, scripts and images.
//
// awake.mp4 and awake.webm are ten seconds of a black 64×64 picture with a
// silent sound track, looped muted by a phone that has no Screen Wake Lock
// (the lock needs a secure context, and the remote is served over plain
// http on the home network): a playing video keeps the screen on. They
// were made with:
//
//	ffmpeg -f lavfi -i color=c=black:s=64x64:r=2 -f lavfi -i anullsrc=r=8000:cl=mono -t 10 \
//	  -c:v libx264 -profile:v baseline -level 3.0 -tune stillimage -pix_fmt yuv420p \
//	  -c:a aac -b:a 8k -movflags +faststart -shortest awake.mp4
//	ffmpeg -f lavfi -i color=c=black:s=64x64:r=2 -f lavfi -i anullsrc=r=8000:cl=mono -t 10 \
//	  -c:v libvpx -b:v 10k -c:a libvorbis -q:a 0 -shortest awake.webm
//
//go:embed static
var FS embed.FS
