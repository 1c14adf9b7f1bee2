// Command train builds the gesture classifier from labelled recordings.
//
//	train features -corpus DIR -out FILE.csv   run the Listener over a labelled corpus (format:
//	                                           ../shared/corpus/README.md) and write every onset's
//	                                           features with its true label
//	train fit -out weights.go FILE.csv...      train the network ensemble on feature tables (.csv or .csv.gz);
//	                                           -var narrowModel for the telephone line's; -ignore NAMES
//	                                           trains it blind to those inputs
//	train eval [-band narrow] FILE.csv...      score a shipped network on feature tables
//	train real -corpus DIR -out OUTDIR         the real recordings' tables (../shared/corpus/real), one per
//	                                           source and class, to measure with (fit -eval, eval), never to
//	                                           train on: fit refuses their rows
//
// Training is deterministic: the same tables give the same weights.
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/gesture/internal/learn"
	"github.com/tableref/tableref/audio/gesture/internal/table"
	"github.com/tableref/tableref/audio/internal/realcorpus"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: train features|fit|eval|real ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "features":
		err = runFeatures(os.Args[2:])
	case "fit":
		err = runFit(os.Args[2:])
	case "eval":
		err = runEval(os.Args[2:])
	case "real":
		err = runReal(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func runFeatures(args []string) error {
	fs := flag.NewFlagSet("features", flag.ContinueOnError)
	dirs := fs.String("corpus", "", "labelled corpus directory, or several, comma-separated (each row's file then starts with its directory's name)")
	out := fs.String("out", "", "table to write (.csv or .csv.gz)")
	every := fs.Int("every", 1, "keep one row in this many (augmented copies of a set teach with fewer rows)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dirs == "" || *out == "" {
		return errors.New("features needs -corpus and -out")
	}
	if *every < 1 {
		return errors.New("-every must be 1 or more")
	}
	list := strings.Split(*dirs, ",")
	var rows [][]string
	n := 0
	for _, dir := range list {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			return err
		}
		sort.Strings(files)
		for _, jf := range files {
			if strings.HasSuffix(jf, "manifest.json") {
				continue
			}
			r, err := table.Extract(jf)
			if err != nil {
				return err
			}
			for _, row := range r {
				if n++; (n-1)%*every != 0 {
					continue
				}
				if len(list) > 1 {
					row[0] = filepath.Base(filepath.Clean(dir)) + "/" + row[0]
				}
				rows = append(rows, row)
			}
		}
	}
	return table.Write(*out, rows)
}

func runFit(args []string) error {
	s := learn.Shipped
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	out := fs.String("out", "", "Go file to write the weights to")
	name := fs.String("var", "model", "the variable the weights are written as: model (a microphone heard in full) or narrowModel (a telephone line)")
	fs.IntVar(&s.Members, "members", s.Members, "networks in the ensemble")
	fs.IntVar(&s.Hidden, "hidden", s.Hidden, "hidden units")
	fs.IntVar(&s.Epochs, "epochs", s.Epochs, "passes over the data")
	fs.Float64Var(&s.L2, "l2", s.L2, "weight decay")
	fs.Float64Var(&s.Noise, "noise", s.Noise, "input noise while training")
	fs.Float64Var(&s.Swap, "swap", s.Swap, "chance that an input is swapped for another example's while training")
	fs.Int64Var(&s.Seed, "seed", s.Seed, "seed of the starting weights and the order of the examples")
	evalOn := fs.String("eval", "", "comma-separated feature tables to score the new ensemble on")
	ignore := fs.String("ignore", "", "comma-separated inputs the network does not see, by name: "+strings.Join(gesture.InputNames[:], ", "))
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return errors.New("fit needs -out and feature tables")
	}
	for _, n := range strings.Split(*ignore, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		i := gesture.Input(strings.ToLower(n))
		if i < 0 {
			return fmt.Errorf("-ignore: no input %q (the inputs: %s)", n, strings.Join(gesture.InputNames[:], ", "))
		}
		s.Ignore = append(s.Ignore, i)
	}
	ex, err := table.Read(fs.Args()...)
	if err != nil {
		return err
	}
	if err := table.Trainable(ex); err != nil {
		return err
	}
	ens, err := learn.Fit(ex, s)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	var names []string
	for _, a := range fs.Args() {
		names = append(names, filepath.Base(a))
	}
	learn.WriteGo(f, *name, ens, names)
	if err := f.Close(); err != nil {
		return err
	}
	report(os.Stdout, "training set", ens, ex)
	if *evalOn != "" {
		for _, p := range strings.Split(*evalOn, ",") {
			ev, err := table.Read(p)
			if err != nil {
				return err
			}
			report(os.Stdout, filepath.Base(p), ens, ev)
		}
	}
	return nil
}

func runEval(args []string) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "list every mistake")
	dump := fs.String("probs", "", "also write every onset's label and the network's probabilities (clap, bang, other) to this CSV file")
	bandName := fs.String("band", "wide", "the shipped network to score: wide (a microphone heard in full) or narrow (a telephone line)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var model gesture.Ensemble
	switch *bandName {
	case "wide":
		model = gesture.Model(gesture.Wide)
	case "narrow":
		model = gesture.Model(gesture.Narrow)
	default:
		return fmt.Errorf("-band is wide or narrow, not %q", *bandName)
	}
	var probs *csv.Writer
	if *dump != "" {
		f, err := os.Create(*dump)
		if err != nil {
			return err
		}
		defer f.Close()
		probs = csv.NewWriter(f)
		defer probs.Flush()
		probs.Write([]string{"name", "label", "clap", "bang", "other", "kind"})
	}
	for _, p := range fs.Args() {
		ex, err := table.Read(p)
		if err != nil {
			return err
		}
		report(os.Stdout, filepath.Base(p), model, ex)
		for _, e := range ex {
			if probs != nil {
				pr := model.Probs(e.F.Vector())
				probs.Write([]string{e.Name, e.Label, ff(pr[0]), ff(pr[1]), ff(pr[2]), string(model.Classify(e.F))})
			}
		}
		if *verbose {
			for _, e := range ex {
				k := model.Classify(e.F)
				if want := table.Kind(e.Label); k != want && (want.IsGesture() || k.IsGesture()) {
					fmt.Printf("  %s: %s heard as %s\n", e.Name, e.Label, k)
				}
			}
		}
	}
	return nil
}

func ff(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// report prints the confusion of ens (the shipped model when nil) on ex.
func report(w io.Writer, name string, ens gesture.Ensemble, ex []table.Example) {
	classify := gesture.Classify
	if ens != nil {
		classify = ens.Classify
	}
	count := map[string]map[gesture.Kind]int{}
	for _, e := range ex {
		g := e.Label
		if g != "clap" && g != "bang" {
			g = "other"
		}
		if count[g] == nil {
			count[g] = map[gesture.Kind]int{}
		}
		count[g][classify(e.F)]++
	}
	total := func(g string) int { return count[g][gesture.Clap] + count[g][gesture.Bang] + count[g][gesture.Other] }
	fmt.Fprintf(w, "%s: claps %d/%d (as bang %d), bangs %d/%d (as clap %d), other sounds heard as gestures %d/%d\n", name,
		count["clap"][gesture.Clap], total("clap"), count["clap"][gesture.Bang],
		count["bang"][gesture.Bang], total("bang"), count["bang"][gesture.Clap],
		count["other"][gesture.Clap]+count["other"][gesture.Bang], total("other"))
}

// runReal writes the feature tables of the real recordings: every onset of
// every recording, labelled by the hits its labels.csv times, one table per
// source and class (OUTDIR/real_SOURCE__CLASS.csv.gz).
func runReal(args []string) error {
	fs := flag.NewFlagSet("real", flag.ContinueOnError)
	dir := fs.String("corpus", filepath.Join("..", "shared", "corpus", "real"), "the real corpus folder (SOURCE/CLASS/*.flac with SOURCE/labels.csv)")
	out := fs.String("out", "", "folder to write the tables to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("real needs -out")
	}
	recs, err := realcorpus.Recordings(*dir)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: no recordings", *dir)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	rows := make([][][]string, len(recs))
	errs := make([]error, len(recs))
	realcorpus.Parallel(max(1, runtime.GOMAXPROCS(0)), len(recs), func(i int) {
		rows[i], errs[i] = table.ExtractReal(recs[i])
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var class [][]string
	for i, r := range recs {
		class = append(class, rows[i]...)
		if i+1 < len(recs) && recs[i+1].Source == r.Source && recs[i+1].Class == r.Class {
			continue
		}
		p := filepath.Join(*out, "real_"+r.Source+"__"+r.Class+".csv.gz")
		if err := table.Write(p, class); err != nil {
			return err
		}
		fmt.Printf("%s: %d onsets\n", p, len(class))
		class = nil
	}
	return nil
}
