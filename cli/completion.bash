# completion.bash -- bash completion for ensemble(1): the commands, each
# command's options and the values of those that take a fixed set (read
# from 'ensemble help --options COMMAND', so they are the ones it
# accepts), and .pcg scripts (and for verify .ir models); trace's
# subcommands, their options and .mtf traces.
# Installed as bash-completion's 'ensemble'; or source it.

# _ensemble_complete_option ENSEMBLE COMMAND-WORDS... -- PREV CUR: when
# PREV is an option of the command that takes a value, or CUR is
# NAME=VALUE of one shown so, fill COMPREPLY with what the value may be
# (its fixed values, files for a FILE, directories for a DIR, else
# nothing) and succeed; else offer the option names when CUR starts with
# a dash (succeed), or fail.  Each line of 'help --options' is an
# option's names, then, tab-separated, its value as the help names it and
# the values it takes.
_ensemble_complete_option()
{
	local ens=$1 w=() prev cur line some name arg vals names=() IFS=$'\n'

	shift
	while [ "$1" != -- ]; do w+=("$1"); shift; done
	prev=$2 cur=$3
	for line in $("$ens" help --options "${w[@]}" 2>/dev/null); do
		IFS=$'\t' read -r some arg vals <<<"$line"
		IFS=' ' read -r -a some <<<"$some"
		names+=("${some[@]}")
		[ -n "$arg" ] || continue
		for name in "${some[@]}"; do
			if [[ $name == *= && $cur == "$name"* ]]; then
				COMPREPLY=($(IFS=' '; compgen -P "$name" \
				    -W "$vals" -- "${cur#"$name"}"))
				return 0
			fi
			if [ "$prev" = "${name%=}" ]; then
				_ensemble_value "$arg" "$vals" "$cur"
				return 0
			fi
		done
	done
	[[ $cur == -* ]] || return 1
	COMPREPLY=($(compgen -W "${names[*]}" -- "$cur"))
	[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
	return 0
}

# _ensemble_value ARG VALUES CUR: what an option's value may be: one of
# its VALUES, a file for a FILE, a directory for a DIR, else nothing.
_ensemble_value()
{
	local IFS=$'\n'

	case $1 in
	FILE|FILE\|*)	COMPREPLY=($(compgen -f -- "$3")) ;;
	DIR)		COMPREPLY=($(compgen -d -- "$3")) ;;
	*)		COMPREPLY=($(IFS=' '; compgen -W "$2" -- "$3")) ;;
	esac
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
		_ensemble_complete_option "$ens" trace "$sub" -- "$prev" \
		    "$cur" && return
		if [ "$COMP_CWORD" -eq 3 ]; then
			COMPREPLY=($(compgen -f -X '!*.mtf' -- "$cur") \
			    $(compgen -d -- "$cur"))
			return
		fi
		[ "$sub" = check ] || return
		;;
	*)
		_ensemble_complete_option "$ens" "$cmd" -- "$prev" "$cur" &&
		    return
		;;
	esac
	COMPREPLY=($(compgen -f -X '!*.pcg' -- "$cur") $(compgen -d -- "$cur"))
	# verify also reads CPN IR models (ensemble(1), IR models).
	[ "$cmd" = verify ] && COMPREPLY+=($(compgen -f -X '!*.ir' -- "$cur"))
	return 0
}
complete -o filenames -F _ensemble ensemble
