package celestial

import _ "embed" // the page module

// page is the game's page module (game.Info.Page): how the table and the
// phones show its view and shape its moves.
//
//go:embed page.js
var page string
