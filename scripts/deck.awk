# One lecture deck, laid out from a chapter's narration (scripts/slides.sh).
#   awk -f deck.awk -v prog=ch04 -v title=... -v lecture=4 -v lectures=14 \
#       -v figs=F -v sums=F -v eqs=F -v results=F -v stored=F -v side=F \
#       [-v dense=1] [-v part=P -v parts=N -v from=S -v to=S] NARRATION >deck.gp
# NARRATION is what the chapter printed in the run that drew the figures:
# "-- Section" headings, paragraphs, indented tables, claim blocks. Each
# section becomes slides: its sentences as points, its equation (eqs), its
# tables, its checks; a figure follows the section that checks its first
# claim. Writes a gnuplot script for the text pages (pdfcairo, 13.07 x 7.35
# in, 941 x 529 pt) on stdout and, into side, one line per figure page
# ("overlay PAGE NAME") and per bookmark ("outline PAGE LEVEL TITLE").
# Files, tab-separated: figs: name, first claim id, rendered (0/1), claim
# ids, caption; sums: id, verdict, claim, control verdict, change, measured
# (sorted by id); eqs: section title, equation (gnuplot enhanced text);
# results: a stored --full result file, or "" (placeholder slide); stored: what
# the run stored beside it, one line each, "text FILE" (generated text) or
# "figure FILE NAME CAPTION" (a figure drawn from its data, placed as NAME).
# dense=1: every section laid out tight (18 pt, lines closer). A lecture too
# long for one deck comes in parts: part P of PARTS holds the sections
# from..to (the figures placed after them, their claims at the end).
# No line is cut: what does not fit on a slide goes on to the next one; a
# check's lines are never split across slides.
BEGIN {
    FS = "\t"; W = 941; H = 529; LEFT = 45; TOP = H - 105; BOTTOM = FLOOR = 52
    SANS = 0.55; MONO = 0.61          # widths of a character, in ems (upper bounds)
    # Sizes below are the sizes on the page, in points; gnuplot's cairo
    # terminals set text at 2/3 of the size they are asked for, hence PT.
    PT = 1.5
    ink = "#222222"; grey = "#555555"; green = "#007A5A"; red = "#C24E00"; blue = "#0072B2"
    page = 0; nsec = 0; nfig = 0; nsum = 0; tight = dense
    if (from == "") from = 1
    if (to == "") to = 1000000
    if (parts == "") { part = 1; parts = 1 }
    while ((getline l < figs) > 0) { split(l, f, "\t"); nfig++
        fname[nfig] = f[1]; fanchor[nfig] = f[2]; frendered[nfig] = f[3]; fids[nfig] = f[4]; fcap[nfig] = f[5] }
    while ((getline l < sums) > 0) { nsum++; sumline[nsum] = l }
    if (eqs != "") while ((getline l < eqs) > 0) { split(l, f, "\t"); eq[f[1]] = f[2] }
    sec = ""; para = ""; inclaim = 0
    title_page()
}

# the title slide, then the agenda: the sections of the narration
function title_page(    n, i, l, k) {
    new_page("", "")
    label("Inventing the Transformer, in C  ·  lecture " lecture " of " lectures (parts > 1 ? ", part " part " of " parts : ""), LEFT, H - 60, 22, grey)
    n = wrap(title, chars(W - 2 * LEFT, 36, 0.62)); y = H - 150
    for (i = 1; i <= n; i++) { label(wrapped[i], LEFT, y, 36, blue, "Sans:Bold"); y -= 48 }
    y -= 10; cont = title; point(statement, 24)
    label("Live: make chapter" lecture "   (" runtime " s on this machine; narration, checks, figures)", LEFT, 70, 20, grey)
    k = 0
    while ((getline l < ARGV[1]) > 0) if (l ~ /^-- /) agenda[++k] = substr(l, 4)
    close(ARGV[1])
    new_page("This lecture" (parts > 1 ? ", part " part " of " parts : ""), prog ": agenda")
    tight = dense || (to < k ? to : k) - from > 6
    for (i = 1; i <= k; i++) if (i >= from && i <= to) point(i ". " agenda[i], 24)
    if (parts > 1) point("(sections " (from > 1 ? 1 : to + 1) "-" (from > 1 ? from - 1 : k) ": part " (from > 1 ? part - 1 : part + 1) " of the lecture)", 20)
    if (nfig > 0) point((parts > 1 ? "Each figure" : nfig " figure" (nfig > 1 ? "s" : "") ", each") " after the section that checks it; the claims, sorted, at the end", 22)
    tight = dense
}

# ---------------------------------------------------------------- the text

# TEXT -> gnuplot enhanced text: x_i, W_q^T, 10^6, sum_j and sqrt( set as
# sub- and superscripts and symbols; every other special character literal.
function enh(s,    out, tok, base, m) {
    gsub(/\\/, "\\\\\\\\", s); gsub(/[{}@&~]/, "\\\\&", s); gsub(/sqrt\(/, "√(", s)
    out = ""
    while (match(s, /[A-Za-z0-9)|]+([_^](-?[0-9]+(\.[0-9]+)?|[A-Za-z0-9]+))+/)) {
        tok = substr(s, RSTART, RLENGTH); out = out lit(substr(s, 1, RSTART - 1)); s = substr(s, RSTART + RLENGTH)
        match(tok, /[_^]/); base = substr(tok, 1, RSTART - 1)
        if (base !~ /^([A-Za-z][0-9]?|d[A-Z]|sum|sigma|[0-9]+|.*[)|])$/) { out = out lit(tok); continue }
        out = out (base == "sum" ? "Σ" : base == "sigma" ? "σ" : base)
        tok = substr(tok, length(base) + 1)
        while (match(tok, /^[_^](-?[0-9]+(\.[0-9]+)?|[A-Za-z0-9]+)/)) {
            out = out substr(tok, 1, 1) "{/=" small " " substr(tok, 2, RLENGTH - 1) "}"
            tok = substr(tok, RLENGTH + 1)
        }
        out = out lit(tok)
    }
    return out lit(s)
}
function lit(s) { gsub(/[_^]/, "\\\\&", s); return s }
# gnuplot string; an apostrophe is set as a typographic one (gnuplot misreads
# a single-quoted string that starts with a doubled quote)
function q(s) { gsub(/'/, "’", s); return "'" s "'" }

# TEXT WIDTH_CHARS -> lines in wrapped[1..n] (words kept whole; a word longer
# than a line is broken, never dropped); returns n
function wrap(s, n) { return wrap_into(s, n, wrapped) }
function wrap_into(s, n, out,    words, k, i, line, cnt) {
    gsub(/\.\.\. /, "...\302\240", s)   # an ellipsis of the text never ends a line: it is not a cut
    cnt = 0; line = ""; k = split(s, words, / +/)
    for (i = 1; i <= k; i++) {
        if (words[i] == "") continue
        while (length(words[i]) > n) {
            if (line != "") { out[++cnt] = line; line = "" }
            out[++cnt] = substr(words[i], 1, n); words[i] = substr(words[i], n + 1)
        }
        if (line == "") line = words[i]
        else if (length(line) + 1 + length(words[i]) <= n) line = line " " words[i]
        else { out[++cnt] = line; line = words[i] }
    }
    if (line != "" || cnt == 0) out[++cnt] = line
    return cnt
}
# TEXT -> its tabs expanded to columns of 8
function tabs(m) {
    while (match(m, /\t/)) m = substr(m, 1, RSTART - 1) substr("        ", 1, 8 - (RSTART - 1) % 8) substr(m, RSTART + 1)
    return m
}
function chars(width, size, em) { return int(width / (size * em)) }
function min(a, b) { return a < b ? a : b }
function max(a, b) { return a > b ? a : b }

# ---------------------------------------------------------------- the page

function label(text, x, y, size, colour, font, align,    f) {
    f = (font == "" ? "Sans" : font)
    small = PT * (size * 0.8 < 18 ? 18 : size * 0.8)
    emit(sprintf("set label %s at screen %.4f,%.4f %s font \"%s,%g\" tc rgb \"%s\" enhanced",
        q(enh(text)), x / W, y / H, (align == "" ? "left" : align), f, PT * size, colour))
}
function mono(text, x, y, size, colour) {
    emit(sprintf("set label %s at screen %.4f,%.4f left font \"DejaVu Sans Mono,%g\" tc rgb \"%s\" noenhanced",
        q(text), x / W, y / H, PT * size, colour))
}
function new_page(heading, where,    n, i) {
    end_page(); page++; y = TOP
    n = (heading == "" ? 0 : wrap_into(heading, chars(W - 2 * LEFT, 28, 0.62), headline))
    for (i = 1; i <= n; i++) label(headline[i], LEFT, H - 50 - 34 * (i - 1), 28, blue, "Sans:Bold")
    if (n > 1) y -= 34 * (n - 1)
    if (heading !~ / \(continued\)$/) cont = heading
    footer = where
}
function end_page() {
    if (page == 0) return
    if (figure_page) label(page " / PAGESTOTAL", W - 8, 14, 18, grey, "", "right")
    else {
        label(footer, LEFT, 16, 18, grey)
        label(page " / PAGESTOTAL", W - LEFT, 16, 18, grey, "", "right")
    }
    figure_page = 0
    emit("plot [0:1][0:1] NaN notitle"); emit("unset label")
}
function outline(level, text) { to_side(sprintf("outline\t%d\t%d\t%s", page, level, text)) }
# the gnuplot script and the side lines are kept until the end, so that a
# section can be laid out again (keep, back_to)
function emit(s) { script[++nscript] = s }
function to_side(s) { sidel[++nside] = s }

# room for H points of height on this page, else a new page that continues
# the section (a section spread over its slides raises BOTTOM; a table keeps
# to the page's own bottom, FLOOR)
function room(h, table) {
    if (y - h >= (table ? FLOOR : BOTTOM)) return
    new_page(cont " (continued)", footer)
}
# sizes and line steps: a tight layout (a section whose last slide would be
# nearly empty, or a deck over 30 slides) sets every text at 18 pt, lines
# closer; never below 18 pt
function sz(size) { return tight && size > 18 ? 18 : size }
function step(size) { return sz(size) * (tight ? 1.14 : 1.3) }
function ROOM() { return TOP - BOTTOM }

# one point: a bullet and its sentence, wrapped with a hanging indent; its
# first two lines kept together, and all of it with NEXT_H points of what
# follows (the table it introduces)
function point(s, size, next_h,    n, i) {
    size = sz(size)
    n = wrap(s, chars(W - LEFT - 30 - LEFT, size, SANS))
    for (i = 1; i <= n; i++) { line_[i] = wrapped[i] }
    if (next_h > 0 && (next_h += n * step(size) + size * (tight ? 0.2 : 0.35)) <= TOP - FLOOR) room(next_h, 1)
    room((n < 2 ? n : 2) * step(size))
    for (i = 1; i <= n; i++) {
        room(step(size))
        if (i == 1) label("•", LEFT, y, size, blue)
        label(line_[i], LEFT + 30, y, size, ink)
        y -= step(size)
    }
    y -= size * (tight ? 0.2 : 0.35)
}

# a block of fixed-width lines (a table, generated text: PROSE): folded when
# wider than the slide; kept on one slide when it fits one, else it goes on
# over slides, a table's header line again at the top of each; the second
# half of a table cut in two starts a slide when the table fills more than one
# (a block taller than a slide is set with its lines closer)
function block(n, lines, prose,    h, j, k, head, p) {
    k = fold(n, lines, prose); h = 18 * (tight || k * 18 * 1.25 > TOP - FLOOR ? 1.1 : 1.25)
    room((k * h <= TOP - FLOOR ? k : 6) * h, 1)
    for (j = 1; j <= k; j++) {
        if (!prose && (j == 1 || folded[j - 1] == "")) {
            head = folded[j]
            if (j > 1) room(k * h > TOP - FLOOR ? TOP - FLOOR : (k - j + 1) * h, 1)
        }
        p = page; room(h, 1)
        if (page != p && folded[j] == "") continue
        if (page != p && !prose && folded[j] != head) { mono(head, 30, y, 18, ink); y -= h }
        mono(folded[j], 30, y, 18, ink); y -= h
    }
    y -= 18 * (tight ? 0.3 : 0.5)
}
# N LINES -> folded[1..k], the lines fitted to the slide's width; returns k.
# A table too wide is cut at a gap between its columns into two tables, the
# second with the first column again; other long lines (and PROSE's) are folded.
function fold(n, lines, prose,    width, i, k, m, c, L) {
    width = chars(W - 2 * 30, 18, MONO)
    k = 0; m = 0
    for (i = 1; i <= n; i++) if (length(lines[i]) > m) m = length(lines[i])
    if (m > width && n > 1 && !prose) {
        for (c = width; c > 10 && !gap(n, lines, c); c--) ;
        for (L = 2; L < c && !(gap(n, lines, L) && !gap(n, lines, L - 1)); L++) ;
        if (c > 10 && L < c && L + m - c <= width) {
            for (i = 1; i <= n; i++) folded[++k] = substr(lines[i], 1, c)
            folded[++k] = ""
            for (i = 1; i <= n; i++) folded[++k] = substr(lines[i], 1, L) substr(lines[i], c + 1)
            return k
        }
    }
    for (i = 1; i <= n; i++) {
        if (length(lines[i]) <= width) { folded[++k] = lines[i]; continue }
        m = lines[i]
        folded[++k] = substr(m, 1, width); m = substr(m, width + 1)
        while (m != "") { folded[++k] = "   " substr(m, 1, width - 3); m = substr(m, width - 2) }
    }
    return k
}
# every line has a blank (or has ended) at column C
function gap(n, lines, c,    i) {
    for (i = 1; i <= n; i++) if (substr(lines[i], c, 1) != " " && length(lines[i]) >= c) return 0
    return 1
}
# a block's height where it starts: all of it when it fits a slide, else 6 lines
function block_start(text,    n, k, h) {
    n = split(text, oplines, "\n"); k = fold(n, oplines); h = 18 * (tight ? 1.1 : 1.25)
    return (k * h <= TOP - FLOOR ? k : 6) * h
}

# one check: its id and verdict, the claim, the measurement, its controls
# (one "control ... - verdict" a line of CONTROLS), all on one slide (a
# check that does not fit where it starts begins the next slide)
function check(id, verdict, text, measured, controls,    n, i, size, h, s18, m, c, k, ctl) {
    size = sz(19); h = size * (tight ? 1.12 : 1.25); s18 = 18 * (tight ? 1.12 : 1.25)
    n = wrap(id " " verdict ": " text, chars(W - 2 * LEFT, size, SANS))
    for (i = 1; i <= n; i++) { line_[i] = wrapped[i] }
    m = (measured == "" ? 0 : wrap(measured, chars(W - 2 * LEFT - 30, 18, SANS)))
    k = (controls == "" ? 0 : split(controls, ctl, "\n")); c = 0
    for (i = 1; i <= k; i++) c += wrap(ctl[i], chars(W - 2 * LEFT - 30, 18, SANS))
    room(n * h + (m + c) * s18)
    for (i = 1; i <= n; i++) { label(line_[i], LEFT, y, size, i == 1 && verdict != "PASS" ? red : (i == 1 ? green : ink)); y -= h }
    if (measured != "") small_lines(measured, grey, s18)
    for (i = 1; i <= k; i++) small_lines(ctl[i], ctl[i] ~ /as it should$/ ? grey : red, s18)
    y -= (tight ? 5 : 10)
}
function small_lines(s, colour, h,    n, i) {
    n = wrap(s, chars(W - 2 * LEFT - 30, 18, SANS))
    for (i = 1; i <= n; i++) { room(h); label(wrapped[i], LEFT + 30, y, 18, colour); y -= h }
}

# ---------------------------------------------------------------- sections

# A section's points, tables and checks are recorded as they are read (op),
# and laid out at once; when its last slide would hold less than half a
# slide, it is laid out again tight, and kept so if that saves a slide, else
# spread evenly over its slides.
function op(kind, a, b, c, d, e) {
    if (skip) return
    nops++; opk[nops] = kind; opa[nops] = a; opb[nops] = b; opc[nops] = c
    opd[nops] = d; ope[nops] = e
}
function do_op(k,    n) {
    if (opk[k] == "point") point(opa[k], opb[k], opk[k + 1] == "block" && opa[k] ~ /:$/ ? block_start(opa[k + 1]) : 0)
    else if (opk[k] == "block") { n = split(opa[k], oplines, "\n"); block(n, oplines, opa[k] ~ /^  \| /) }
    else check(opa[k], opb[k], opc[k], opd[k], ope[k])
}
function keep() {
    s_nscript = nscript; s_nside = nside; s_page = page; s_y = y; s_cont = cont; s_footer = footer; nops = 0
}
function back_to() {
    nscript = s_nscript; nside = s_nside; page = s_page; y = s_y; cont = s_cont; footer = s_footer; figure_page = 0
}
function relay(t,    k) { back_to(); tight = t; for (k = 1; k <= nops; k++) do_op(k) }
function finish_section(    pages, t) {
    if (nops == 0) return
    relay(tight)
    pages = page - s_page
    if (pages == 0 || TOP - y >= 0.5 * ROOM()) return
    t = tight
    if (!t) {
        relay(1)
        if (page - s_page < pages) { t = 1; pages = page - s_page } else relay(0)
    }
    if (pages > 0 && TOP - y < 0.5 * ROOM()) spread(pages, t)
    tight = dense
}
# the section over as many slides, evenly: each slide's bottom raised as
# far as the count of slides allows
function spread(pages, t,    b, best, low) {
    low = BOTTOM; best = 0
    for (b = 20; b <= 0.5 * ROOM(); b += 20) {
        BOTTOM = low + b; relay(t)
        if (page - s_page > pages) break
        best = b
    }
    BOTTOM = low + best; relay(t); BOTTOM = low
}

function sentences(p,    s, k) {
    ns = 0
    while (match(p, /[.!?:]["')]? +[A-Z("`]/) && RSTART > 1) {
        s = substr(p, 1, RSTART + RLENGTH - 2); p = substr(p, RSTART + RLENGTH - 1)
        sub(/ +$/, "", s)
        if (s ~ /( al| e\.g| i\.e| vs| cf|\.\.)\.$/ || length(s) < 12) { carry = carry s " "; continue }
        sent[++ns] = carry s; carry = ""
    }
    if (p != "") sent[++ns] = carry p
    carry = ""
}
function flush_para(    i) {
    if (para == "") return
    sentences(para); para = ""
    for (i = 1; i <= ns; i++) op("point", sent[i], 20)
}
function flush_block(    i, s) {
    if (nb > 0) { s = blk[1]; for (i = 2; i <= nb; i++) s = s "\n" blk[i]; op("block", s) }
    nb = 0
    if (runs > 0) op("point", "(the progress lines of " runs " training run" (runs > 1 ? "s" : "") ": in the notes)", 18)
    runs = 0
}

# NAME HEADING: a section of the narration (HEADING 0: the text before the
# first heading); a deck in parts lays out only its own sections (from, to)
function start_section(name, heading) {
    flush_para(); flush_block()
    if (!skip) { finish_section(); place_figures() }
    sec = name; nsec += heading
    skip = nsec < from && !(nsec == 0 && from == 1) || nsec > to
    if (skip) return
    new_page(name, prog ": " name)
    outline(2, name)
    if (name in eq) { # at 30 pt, smaller (not under 20) when it is long
        label(eq[name], W / 2, y - 14, min(30, max(20, (W - 2 * LEFT) / (SANS * length(eq[name])))), ink, "", "center")
        y -= 80
        delete eq[name]
    }
    keep()
}

# figures whose first claim was checked in the section just ended
function place_figures(    i) {
    for (i = 1; i <= nfig; i++)
        if (!(i in placed) && (fanchor[i] in seen_id)) figure(i)
}
# a figure fills its slide (it is drawn at the slide's size, its type at
# 18 pt); its caption and claims come just before it, on the section's last
# slide when they fit there, else on a slide of their own
function figure(i,    n, k, a, j, h) {
    placed[i] = 1; figno++
    n = wrap(fcap[i], chars(W - LEFT - 30 - LEFT, sz(20), SANS)); h = 34 + n * step(20)
    k = split(fids[i], a, " ")
    for (j = 1; j <= k; j++) h += claim_lines(a[j]) * sz(19) * 1.25 + 10
    if (page == 0 || figure_page || y - h < BOTTOM) new_page("Figure " figno ": what it shows", prog ": figure " fname[i])
    else { y -= 10; label("Figure " figno ", on the next slide:", LEFT, y, 22, blue, "Sans:Bold"); y -= 34 }
    point(fcap[i], 20)
    figure_claims(fids[i])
    new_page("", "")
    figure_page = 1
    if (!frendered[i]) label("figure " fname[i] " was not rendered (gnuplot missing, or the chapter failed)", W / 2, H / 2, 24, red, "", "center")
    else to_side(sprintf("overlay\t%d\t%s", page, fname[i]))
}
# ID -> the lines its claim takes on a slide
function claim_lines(id,    j, f) {
    for (j = 1; j <= nsum; j++) {
        split(sumline[j], f, "\t")
        if (f[1] == id) return wrap(f[1] " " f[2] ": " f[3], chars(W - 2 * LEFT, sz(19), SANS))
    }
    return 0
}
function figure_claims(ids,    k, a, j, f) {
    k = split(ids, a, " ")
    for (j = 1; j <= k; j++) summary(a[j], 1)
}
# the closing summary of one claim id
# (BRIEF: the claim alone, its control being shown in the closing summary)
function summary(id, brief,    j, f) {
    for (j = 1; j <= nsum; j++) {
        split(sumline[j], f, "\t")
        if (f[1] != id) continue
        if (brief) { check(f[1], f[2], f[3], "", ""); return }
        check(f[1], f[2], f[3], "", f[5] == "" ? "no control" : "control (" f[5] "): " f[6] " - " \
              (f[4] == "FAILS" ? "fails, as it should" : f[4] == "HOLDS" ? "HOLDS: the check cannot tell right from wrong" : ""))
        return
    }
}

# ---------------------------------------------------------------- narration

NR <= 3 && /^(Chapter |=+$|$)/ { next }
/^-- / { start_section(substr($0, 4), 1); next }
/^  [A-Z][0-9]+  (PASS|FAIL)  / {
    flush_para(); flush_block()
    if (sec == "") start_section(title, 0)
    emit_check(); cid = $0; sub(/^  /, "", cid); cv = cid
    sub(/ .*/, "", cid); sub(/^[A-Z0-9]+  /, "", cv); ctext = cv; sub(/ .*/, "", cv); sub(/^[A-Z]+  /, "", ctext)
    cmeas = ""; cctl = ""; inclaim = 1; all_ids[cid] = 1; if (!skip) seen_id[cid] = 1; next
}
inclaim && /^             / { m = $0; sub(/^ +/, "", m); cmeas = cmeas (cmeas == "" ? "" : " ") m; next }
inclaim && /^      control/ { m = $0; sub(/^ +/, "", m); cctl = cctl (cctl == "" ? "" : "\n") m; next }
inclaim && /^        / { m = $0; sub(/^ +/, "", m); cctl = cctl " - " m; next }
{ emit_check() }
/^ch[0-9]+: [0-9]+ of [0-9]+ checks/ { flush_para(); flush_block(); tally = $0; next }
/^$/ { flush_para(); flush_block(); next }
# a training run's progress line ("step 300/300 ..."): in the notes, counted here
/^  .*step +[0-9]+\/[0-9]+ / { flush_para(); if (sec == "") start_section(title, 0); runs++; next }
# a table's lines are indented; a row whose label fills the first column
# starts with one space
/^  / || nb > 0 && /^ [^ ]/ {
    flush_para(); if (sec == "") start_section(title, 0)
    blk[++nb] = tabs($0); next
}
{ flush_block(); if (sec == "") start_section(title, 0); para = para (para == "" ? "" : " ") $0 }

function emit_check() {
    if (!inclaim) return
    inclaim = 0
    op("check", cid, cv, ctext, cmeas, cctl)
}

END {
    emit_check(); flush_para(); flush_block()
    if (!skip) { finish_section(); place_figures() }
    if (part == parts) for (i = 1; i <= nfig; i++) if (!(i in placed) && !(fanchor[i] in all_ids)) figure(i)
    if (part == parts && results_for != "") trained()
    new_page(title ": the claims, checked", prog ": claims")
    outline(2, "The claims, checked")
    if (tally != "") { point(tally ". Each claim below was also checked on a near miss where it must not hold.", 22) }
    for (j = 1; j <= nsum; j++) { split(sumline[j], f, "\t"); if (f[1] in seen_id || part == parts && !(f[1] in all_ids)) summary(f[1]) }
    end_page()
    for (i = 1; i <= nscript; i++) print script[i]
    for (i = 1; i <= nside; i++) print sidel[i] > side
    print page > (side ".pages")
}

# ---------------------------------------------------------------- --full

# the stored --full results, or a slide that says which command makes them; then
# what the run stored beside them (stored: "text FILE", "figure FILE NAME CAPTION")
function trained(    l, n, lines, nh, hdr, i, f) {
    new_page(title ": the trained model (--full)", prog ": trained model")
    outline(2, "The trained model (--full)")
    if (results == "" || (getline l < results) <= 0) {
        point("The results of the full training run are not stored in this checkout yet.", 22)
        point("They come from: " results_cmd, 22)
        point("which writes " results_for " (and what goes beside it); run it once (minutes on two cores), commit the files, and make slides again: these slides then show its table, and its generated text or heads.", 22)
        return
    }
    n = 0; nh = 0
    do {
        if (l ~ /^# /) hdr[++nh] = substr(l, 3)
        else lines[++n] = l
    } while ((getline l < results) > 0)
    close(results)
    block(align(n, lines), aligned)
    for (i = 1; i <= nh; i++) point(hdr[i], 18)
    while ((getline l < stored) > 0) {
        split(l, f, "\t")
        if (f[1] == "text") stored_text(f[2])
        else stored_figure(f[2], f[3], f[4])
    }
    close(stored)
}
# N tab-separated LINES -> aligned[1..N]: each column as wide as its widest cell
# (in characters, not bytes), two spaces between columns; returns N
function align(n, lines,    i, j, k, c, w, cell) {
    for (i = 1; i <= n; i++) {
        k = split(lines[i], cell, "\t")
        for (j = 1; j < k; j++) if (width(cell[j]) > w[j]) w[j] = width(cell[j])
    }
    for (i = 1; i <= n; i++) {
        k = split(lines[i], cell, "\t"); aligned[i] = ""
        for (j = 1; j < k; j++) aligned[i] = aligned[i] cell[j] sprintf("%" (w[j] - width(cell[j]) + 2) "s", "")
        aligned[i] = aligned[i] cell[k]
    }
    return n
}
function width(s) { return length(s) - gsub(/[\200-\277]/, "", s) }
# FILE's first N lines (its stamp: command, date, machine, what it holds) as points
function stamp(file, n,    l) {
    while (n-- > 0 && (getline l < file) > 0 && l ~ /^# /) point(substr(l, 3), 18)
    close(file)
}
# the generated text the run stored (FILE: its stamp, then "| " and a line of text)
function stored_text(file,    l, n, lines) {
    new_page("The trained model writes (--full)", prog ": generated text")
    outline(2, "The trained model writes (--full)")
    stamp(file, 3); n = 0
    while ((getline l < file) > 0) if (l ~ /^\| ?/) { sub(/^\| ?/, "", l); lines[++n] = tabs(l) }
    close(file)
    block(n, lines, 1)
}
# a figure drawn here from the data the run stored (FILE, drawn as NAME): its stamp and
# caption, then the figure filling its slide
function stored_figure(file, name, caption) {
    new_page("Figure " (++figno) ", from the stored --full run: what it shows", prog ": figure " name)
    outline(2, "Figure " figno ", from the --full run")
    stamp(file, 2)
    point(caption, 20)
    new_page("", "")
    figure_page = 1
    to_side(sprintf("overlay\t%d\t%s", page, name))
}
