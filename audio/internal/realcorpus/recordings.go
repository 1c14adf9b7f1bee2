package realcorpus

import "strings"

// Recording is one recording of the corpus and what its labels say of it.
type Recording struct {
	Source string // the source folder
	Class  string // the class folder
	Kind   Kind   // what the class holds
	Name   string // the file's name, without .flac
	Path   string // the FLAC file
	Label  Label  // its labels.csv row (the zero Label when it has none)
}

// Recordings lists the corpus in dir as score-real walks it (sources,
// classes and files in sorted order), but for the classes of single clips
// (*_single), which are heard strung together rather than one by one.
func Recordings(dir string) ([]Recording, error) {
	srcs, err := scan(dir)
	if err != nil {
		return nil, err
	}
	var out []Recording
	for _, s := range srcs {
		for _, c := range s.classes {
			if c.single {
				continue
			}
			for _, f := range c.files {
				name := strings.TrimSuffix(f.name, ".flac")
				out = append(out, Recording{Source: s.name, Class: c.name, Kind: c.kind, Name: name, Path: f.path,
					Label: s.labels[c.name+"/"+name]})
			}
		}
	}
	return out, nil
}
