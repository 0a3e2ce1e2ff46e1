// completion.go: `kubesim completion bash|zsh|fish`, a script that teaches the shell kubesim's
// commands, its scenario names and run's flags.
//
//	source <(kubesim completion bash)      # in ~/.bashrc
//	source <(kubesim completion zsh)       # in ~/.zshrc (through zsh's bash completion support)
//	kubesim completion fish | source       # in ~/.config/fish/config.fish
//
// The names are written into the script when it is generated: regenerate it after an upgrade.
package main

import (
	"flag"
	"fmt"
	"io"
	"kubesim/scenarios"
	"strings"
)

func completion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("completion", `usage: kubesim completion bash|zsh|fish

Prints a script that completes kubesim's commands, scenario names and flags. Load it with:
  bash:  source <(kubesim completion bash)
  zsh:   source <(kubesim completion zsh)
  fish:  kubesim completion fish | source`, stderr)
	shells, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(shells) != 1 {
		fs.Usage()
		return 2
	}
	var names []string
	for _, s := range scenarios.All() {
		names = append(names, s.Name)
	}
	runFlagSet, _ := newRunFlags(io.Discard)
	var flags []*flag.Flag
	runFlagSet.VisitAll(func(f *flag.Flag) { flags = append(flags, f) })
	switch shells[0] {
	case "bash":
		fmt.Fprint(stdout, bashCompletion(names, flags))
	case "zsh":
		fmt.Fprint(stdout, "# zsh completion for kubesim: source <(kubesim completion zsh)\n"+
			"autoload -U +X bashcompinit && bashcompinit\n"+bashCompletion(names, flags))
	case "fish":
		fmt.Fprint(stdout, fishCompletion(names, flags))
	default:
		fmt.Fprintf(stderr, "kubesim completion: no completion for shell %q: bash, zsh or fish\n", shells[0])
		return 2
	}
	return 0
}

func bashCompletion(scenarios []string, flags []*flag.Flag) string {
	var runFlags []string
	for _, f := range flags {
		runFlags = append(runFlags, "--"+f.Name)
	}
	return fmt.Sprintf(`# bash completion for kubesim: source <(kubesim completion bash)
_kubesim() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local scenarios=%q
	if [[ $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W %q -- "$cur"))
		return
	fi
	case $prev in
	-f|--f|-out|--out) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-scenario|--scenario) COMPREPLY=($(compgen -W "$scenarios" -- "$cur")); return ;;
	-trace|--trace) COMPREPLY=($(compgen -W "text json mermaid" -- "$cur")); return ;;
	-lang|--lang) COMPREPLY=($(compgen -W "en zh" -- "$cur")); return ;;
	-color|--color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
	esac
	case ${COMP_WORDS[1]} in
	run)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W %q -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$scenarios" -- "$cur"))
		fi ;;
	describe) COMPREPLY=($(compgen -W "$scenarios -f" -- "$cur")) ;;
	explain) COMPREPLY=($(compgen -W "-f --pod --nodes --scenario --output --seed" -- "$cur")) ;;
	help) COMPREPLY=($(compgen -W %q -- "$cur")) ;;
	completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
	esac
}
complete -o default -F _kubesim kubesim
`, strings.Join(scenarios, " "), strings.Join(commands, " "), strings.Join(runFlags, " "), strings.Join(commands, " "))
}

func fishCompletion(scenarios []string, flags []*flag.Flag) string {
	var b strings.Builder
	b.WriteString("# fish completion for kubesim: kubesim completion fish | source\n")
	b.WriteString("complete -c kubesim -f\n")
	fmt.Fprintf(&b, "complete -c kubesim -n __fish_use_subcommand -a %q\n", strings.Join(commands, " "))
	fmt.Fprintf(&b, "complete -c kubesim -n '__fish_seen_subcommand_from run describe' -a %q\n", strings.Join(scenarios, " "))
	fmt.Fprintf(&b, "complete -c kubesim -n '__fish_seen_subcommand_from help' -a %q\n", strings.Join(commands, " "))
	b.WriteString("complete -c kubesim -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
	b.WriteString("complete -c kubesim -n '__fish_seen_subcommand_from describe explain' -o f -r -F\n")
	for _, f := range flags {
		// fish quotes with single quotes; a description keeps its words, not its quotes.
		usage := strings.ReplaceAll(f.Usage, "'", "")
		file := ""
		if f.Name == "f" || f.Name == "out" {
			file = " -F"
		}
		fmt.Fprintf(&b, "complete -c kubesim -n '__fish_seen_subcommand_from run' -o %s -l %s -d '%s'%s\n", f.Name, f.Name, usage, file)
	}
	return b.String()
}
