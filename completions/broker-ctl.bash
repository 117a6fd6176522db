# shellcheck shell=bash
# bash completion for broker-ctl. Installed as
# $(PREFIX)/share/bash-completion/completions/broker-ctl, where bash-completion loads it on the
# first Tab after `broker-ctl`; or source it from ~/.bashrc. Needs nothing but bash 4.2.
#
# broker-ctl's command line, one subcommand a line, in the order of BrokerCtl.allSubcommands:
# the name, then each option the subcommand takes and each positional argument.
#   --flag            an option without a value
#   --option=VALUE    an option with a value; VALUE says what to offer for it:
#                     a|b|c   these words (e.g. --format=json|listenbrainz)
#                     ID APP  the app ids the broker knows (`broker-ctl apps --ids`)
#                     WHEN    now today yesterday
#                     DATE    today yesterday
#                     other   nothing (N, PATH, free text)
#   ARG / [ARG]       a required / optional positional argument; offered as above, and
#                     SUBCOMMAND offers the subcommands
# -h/--help is accepted everywhere and is not listed. Tests/PackagingTests/CompletionTests.swift
# checks these lines against the parser, both ways: add a subcommand here when you add it there.
_broker_ctl_spec() {
    cat <<'EOF'
recent --limit=N --since=WHEN --until=WHEN --app=ID --json --format=markdown|text|json --no-art
moments --limit=N --since=WHEN --until=WHEN --on-this-day=WHEN --gap=DURATION --app=ID --json --format=markdown|text|json --no-art
day --format=markdown|text|json --no-art [DATE]
now --json
follow --json
status --json
donate --app=ID --title=T --artist=A --album=B --started=WHEN --length=SECONDS --json
media --json [on|off|status]
pause --until=TIME --json [DURATION]
resume --json
apps --json --ids
new-apps --json [record|ask|ignore]
opt-out --site=SITE --purge --yes [APP]
opt-in --site=SITE [APP]
readers --json --ids
allow APP
deny APP
forget APP
edit --title=T --artist=A --album=B --from-now-on --undo --json ID
rules --json --ids [remove] [ID]
suggest --at=HH:MM --app=ID --no-app --json [on|off|status]
purge --app=ID --since=WHEN --until=WHEN --all --yes
retention --json [DAYS]
export --since=WHEN --until=WHEN --app=ID --format=json|listenbrainz
help [SUBCOMMAND]
EOF
}

# Options broker-ctl takes before a subcommand.
_broker_ctl_global_options=(--help --version)

# Prints the words of the spec line for subcommand $1, without the name; fails if there is none.
_broker_ctl_words_of() {
    local name rest
    while read -r name rest; do
        if [[ $name == "$1" ]]; then
            printf '%s\n' "$rest"
            return 0
        fi
    done < <(_broker_ctl_spec)
    return 1
}

# Adds to COMPREPLY each of the remaining arguments that starts with $1. No compgen -W: it would
# expand $(…) and globs in app ids, which come from other programs.
_broker_ctl_add_matching() {
    local prefix=$1 word
    shift
    for word in "$@"; do
        [[ $word == "$prefix"* ]] && COMPREPLY+=("$word")
    done
}

# The app ids the broker knows, one a line. Silent and quick whatever happens: the broker may be
# missing, slow, or (before `apps --ids` exists) answer with a usage error. Waits at most
# BROKER_CTL_COMPLETION_TIMEOUT seconds (1 unless set), so Tab never hangs on a stuck bus.
_broker_ctl_app_ids() {
    local program=$1
    command -v timeout >/dev/null 2>&1 || return 0
    timeout "${BROKER_CTL_COMPLETION_TIMEOUT:-1}" "$program" apps --ids 2>/dev/null </dev/null || true
}

# Prints the kind of value option $1 takes, given the subcommand's spec words after it; nothing
# for a flag or an unknown option.
_broker_ctl_value_kind() {
    local option=$1 word
    shift
    for word in "$@"; do
        if [[ $word == "$option="* ]]; then
            printf '%s\n' "${word#*=}"
            return 0
        fi
    done
}

# Completes the value $2 of a value kind $1 (see the spec above) for the program $3.
_broker_ctl_complete_value() {
    local kind=$1 cur=$2 program=$3
    case $kind in
    ID | APP)
        local -a ids=()
        mapfile -t ids < <(_broker_ctl_app_ids "$program")
        _broker_ctl_add_matching "$cur" "${ids[@]}"
        ;;
    WHEN) _broker_ctl_add_matching "$cur" now today yesterday ;;
    DATE) _broker_ctl_add_matching "$cur" today yesterday ;;
    SUBCOMMAND)
        local name rest
        while read -r name rest; do
            _broker_ctl_add_matching "$cur" "$name"
        done < <(_broker_ctl_spec)
        ;;
    *"|"*)
        local -a choices=()
        IFS='|' read -r -a choices <<<"$kind"
        _broker_ctl_add_matching "$cur" "${choices[@]}"
        ;;
    esac
}

_broker_ctl() {
    COMPREPLY=()
    local cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]}
    local program=${COMP_WORDS[0]}
    [[ $program == */* && -x $program ]] || program=broker-ctl

    # `--opt=val` arrives as three words when '=' is in COMP_WORDBREAKS (the default):
    # `--opt` `=` `val`. Note the option whose value is being completed, if any.
    local value_of=''
    if [[ $cur == "=" && ${COMP_WORDS[cword - 1]} == --* ]]; then
        value_of=${COMP_WORDS[cword - 1]}
        cur=
    elif ((cword >= 2)) && [[ ${COMP_WORDS[cword - 1]} == "=" && ${COMP_WORDS[cword - 2]} == --* ]]; then
        value_of=${COMP_WORDS[cword - 2]}
    elif [[ $cur == --*=* ]]; then
        # '=' is not a word break: complete the value, and keep `--opt=` in front of it.
        value_of=${cur%%=*}
        cur=${cur#*=}
    fi

    # The subcommand: the first word after broker-ctl that is not an option.
    local i subcommand='' subcommand_index=0
    for ((i = 1; i < cword; i++)); do
        if [[ ${COMP_WORDS[i]} != -* ]]; then
            subcommand=${COMP_WORDS[i]}
            subcommand_index=$i
            break
        fi
    done
    if [[ -z $subcommand ]]; then
        if [[ $cur == -* ]]; then
            _broker_ctl_add_matching "$cur" "${_broker_ctl_global_options[@]}"
        else
            _broker_ctl_complete_value SUBCOMMAND "$cur" "$program"
        fi
        return 0
    fi

    local spec
    spec=$(_broker_ctl_words_of "$subcommand") || return 0
    local -a words options=() positionals=()
    read -r -a words <<<"$spec"
    local word
    for word in "${words[@]}"; do
        if [[ $word == -* ]]; then options+=("$word"); else positionals+=("$word"); fi
    done

    # Completing `--opt=…` (in whichever way bash split it).
    if [[ -n $value_of ]]; then
        local kind
        kind=$(_broker_ctl_value_kind "$value_of" "${options[@]}")
        [[ -n $kind ]] || return 0
        if [[ ${COMP_WORDS[cword]} == --*=* ]]; then
            local -a values=()
            _broker_ctl_complete_value "$kind" "$cur" "$program"
            values=("${COMPREPLY[@]}")
            COMPREPLY=()
            for word in "${values[@]}"; do COMPREPLY+=("$value_of=$word"); done
        else
            _broker_ctl_complete_value "$kind" "$cur" "$program"
        fi
        return 0
    fi

    # The words between the subcommand and the cursor: count positionals, skipping option values.
    local previous_kind='' given=0 options_ended=''
    for ((i = subcommand_index + 1; i < cword; i++)); do
        word=${COMP_WORDS[i]}
        if [[ -n $previous_kind ]]; then
            previous_kind=
            [[ $word == "=" ]] && previous_kind=value-follows
            continue
        fi
        if [[ -z $options_ended && $word == -- ]]; then
            options_ended=yes
        elif [[ -z $options_ended && $word == --* && $word != *=* ]]; then
            previous_kind=$(_broker_ctl_value_kind "$word" "${options[@]}")
        elif [[ -z $options_ended && $word == -* ]]; then
            :
        else
            ((given++))
        fi
    done
    # The word before the cursor is an option that takes a value: offer values.
    if [[ -n $previous_kind && $previous_kind != value-follows ]]; then
        _broker_ctl_complete_value "$previous_kind" "$cur" "$program"
        return 0
    fi

    # A positional argument is due (and the word is not an option): offer its values. Otherwise
    # offer the options, all of them: a repeated option overrides the earlier one.
    local due=''
    if ((given < ${#positionals[@]})); then
        due=${positionals[given]#[}
        due=${due%]}
    fi
    if [[ -n $due && (-n $options_ended || $cur != -*) ]]; then
        _broker_ctl_complete_value "$due" "$cur" "$program"
    elif [[ -z $options_ended ]]; then
        local option
        for option in "${options[@]}"; do
            _broker_ctl_add_matching "$cur" "${option%%=*}"
        done
        _broker_ctl_add_matching "$cur" --help
    fi
    return 0
}

complete -F _broker_ctl broker-ctl
