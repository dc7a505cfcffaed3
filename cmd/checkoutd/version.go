package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version and commit are set when the binary is built (the Makefile's build target):
// -ldflags "-X main.version=... -X main.commit=...".
var version, commit string

// versionCmd prints the version and commit, falling back on what Go recorded in the binary
// (the main module's version, the VCS revision) when the build set neither.
type versionCmd struct{}

func (versionCmd) Run(stdout io.Writer) error {
	v, c := buildVersion()
	_, err := fmt.Fprintf(stdout, "checkoutd %s (commit %s, %s)\n", v, c, runtime.Version())
	return err
}

func buildVersion() (v, c string) {
	v, c = version, commit
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" {
			v = info.Main.Version
		}
		if c == "" {
			c = vcsRevision(info.Settings)
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	if c == "" {
		c = "unknown"
	}
	return v, c
}

func vcsRevision(settings []debug.BuildSetting) string {
	var revision, modified string
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision != "" && modified == "true" {
		revision += "-dirty"
	}
	return revision
}
