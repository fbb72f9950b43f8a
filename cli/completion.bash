# completion.bash -- bash completion for ensemble(1): the commands, each
# command's options (read from 'ensemble help COMMAND', so they are the
# ones it accepts), the values of a few options, and .pcg scripts (and
# for verify .ir models); trace's subcommands, their options and .mtf
# traces.
# Installed as bash-completion's 'ensemble'; or source it.

# The option names a command's help lists, one a line: "-np, --np K" gives
# -np and --np, "--[no-]progress" gives --progress and --no-progress, and
# "--send-mode=MODE" gives --send-mode=.
_ensemble_options()
{
	"$1" help "$2" 2>/dev/null | _ensemble_option_names
}

# The option names of the help on standard input.
_ensemble_option_names()
{
	awk '/^  -/ {
		l = substr($0, 3)
		if (length(l) > 16 && substr(l, 16, 1) == " ")
			l = substr(l, 1, 15)
		sub(/ +$/, "", l)
		eq = l ~ /=[A-Z]/
		sub(/[ =][A-Z][A-Z|=.,-]*$/, "", l)
		n = split(l, names, ", ")
		for (i = 1; i <= n; i++)
			if (sub(/^--\[no-\]/, "", names[i]))
				print "--" names[i] "\n--no-" names[i]
			else
				print names[i] (eq ? "=" : "")
	}'
}

_ensemble()
{
	local ens=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}
	local IFS=$'\n'

	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$("$ens" help 2>/dev/null |
		    awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }')
--help
--version" -- "$cur"))
		return
	fi
	case $cmd in
	help)
		[ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "$("$ens" help \
		    2>/dev/null | awk '/^Commands:/ { f = 1; next }
		    f && /^  [a-z]/ { print $1 }')" -- "$cur"))
		return
		;;
	version)
		return
		;;
	trace)
		# trace SUBCOMMAND TRACE, then check's SCRIPT or query's QUERY.
		local sub=${COMP_WORDS[2]-}
		if [ "$COMP_CWORD" -eq 2 ]; then
			COMPREPLY=($(compgen -W "$("$ens" trace --help 2>/dev/null |
			    awk '/^Subcommands:/ { f = 1; next }
			    f && /^  [a-z]/ { print $1 }')" -- "$cur"))
			return
		fi
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$("$ens" trace "$sub" --help \
			    2>/dev/null | _ensemble_option_names)" -- "$cur"))
			return
		fi
		case $prev in
		-L)	COMPREPLY=($(compgen -d -- "$cur")); return ;;
		-np|--np|-D|--between) return ;;
		esac
		if [ "$COMP_CWORD" -eq 3 ]; then
			COMPREPLY=($(compgen -f -X '!*.mtf' -- "$cur") \
			    $(compgen -d -- "$cur"))
			return
		fi
		[ "$sub" = check ] || return
		;;
	esac
	case $cur in
	--send-mode=*)
		COMPREPLY=($(compgen -P --send-mode= -W $'both\nbuffered\nsynchronous' \
		    -- "${cur#--send-mode=}"))
		return
		;;
	esac
	case $prev in
	-o|--explain|--hostfile)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-L|--output-dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-T)
		COMPREPLY=($(compgen -W $'svg\npng\npdf\ndot\npnml' -- "$cur"))
		return
		;;
	-K)
		COMPREPLY=($(compgen -W $'dot\ncirco\nneato\nfdp\nsfdp\ntwopi' -- "$cur"))
		return
		;;
	-np|--np|-D|--max-states|--max-memory|--max-time|--timeout|--start-timeout)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_ensemble_options "$ens" "$cmd")" -- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	COMPREPLY=($(compgen -f -X '!*.pcg' -- "$cur") $(compgen -d -- "$cur"))
	# verify also reads CPN IR models (ensemble(1), IR models).
	[ "$cmd" = verify ] && COMPREPLY+=($(compgen -f -X '!*.ir' -- "$cur"))
	return 0
}
complete -o filenames -F _ensemble ensemble
