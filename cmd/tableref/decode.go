package main

import (
	"github.com/tableref/tableref/rules/woodlouse"
)

func runDecode(e *env, args []string) error {
	var lf listenFlags
	var order string
	fs := newFlags("decode", "--wav FILE --order woodlouse,rat,spider,fly [--gap SECONDS] [--json]",
		"Hears the Woodlouse Chaos codes in a recording and says which card each one shows: the bangs give the\n"+
			"animal's position in the row of sequence cards (--order, position 1 first, next to the box), the claps\n"+
			"how many animals. A code that fits no card is reported with the reason.", e.stdout)
	lf.register(fs, false)
	fs.StringVar(&order, "order", "", "the sequence cards from position 1, comma-separated: 3 to 5 of woodlouse, spider, fly, rat, snail")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if lf.wav == "" {
		return usagef("--wav FILE is required")
	}
	if order == "" {
		return usagef("--order is required, e.g. --order woodlouse,rat,spider,fly")
	}
	o, err := woodlouse.ParseOrder(order)
	if err != nil {
		return usagef("--order: %v", err)
	}
	if err := lf.check(); err != nil {
		return err
	}
	var out printer
	if lf.json {
		out = &jsonPrinter{w: e.stdout, order: o}
	} else {
		h := newHumanPrinter(e.stdout, lf.verbose)
		h.order = o
		out = h
	}
	return listen(e, lf, out)
}
