# One lecture deck, laid out from a chapter's narration (scripts/slides.sh).
#   awk -f deck.awk -v prog=ch04 -v title=... -v lecture=4 -v lectures=14 \
#       -v figs=F -v sums=F -v eqs=F -v results=F -v side=F NARRATION >deck.gp
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
# results: a stored --full result file, or "" (placeholder slide).
# No line is cut: what does not fit on a slide goes on to the next one.
BEGIN {
    FS = "\t"; W = 941; H = 529; LEFT = 45; TOP = H - 105; BOTTOM = 52
    SANS = 0.55; MONO = 0.61          # widths of a character, in ems (upper bounds)
    # Sizes below are the sizes on the page, in points; gnuplot's cairo
    # terminals set text at 2/3 of the size they are asked for, hence PT.
    PT = 1.5
    ink = "#222222"; grey = "#555555"; green = "#007A5A"; red = "#C24E00"; blue = "#0072B2"
    page = 0; nsec = 0; nfig = 0; nsum = 0
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
    label("Inventing the Transformer, in C  ·  lecture " lecture " of " lectures, LEFT, H - 60, 22, grey)
    n = wrap(title, chars(W - 2 * LEFT, 36, 0.62)); y = H - 150
    for (i = 1; i <= n; i++) { label(wrapped[i], LEFT, y, 36, blue, "Sans:Bold"); y -= 48 }
    y -= 10; cont = title; point(statement, 24)
    label("Live: make chapter" lecture "   (" runtime " s on this machine; narration, checks, figures)", LEFT, 70, 20, grey)
    k = 0
    while ((getline l < ARGV[1]) > 0) if (l ~ /^-- /) agenda[++k] = substr(l, 4)
    close(ARGV[1])
    new_page("This lecture", prog ": agenda")
    for (i = 1; i <= k; i++) point(i ". " agenda[i], 24)
    if (nfig > 0) point(nfig " figure" (nfig > 1 ? "s" : "") ", each after the section that checks it; the claims, sorted, at the end", 22)
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
function chars(width, size, em) { return int(width / (size * em)) }

# ---------------------------------------------------------------- the page

function label(text, x, y, size, colour, font, align,    f) {
    f = (font == "" ? "Sans" : font)
    small = PT * (size * 0.8 < 18 ? 18 : size * 0.8)
    printf "set label %s at screen %.4f,%.4f %s font \"%s,%g\" tc rgb \"%s\" enhanced\n",
        q(enh(text)), x / W, y / H, (align == "" ? "left" : align), f, PT * size, colour
}
function mono(text, x, y, size, colour) {
    printf "set label %s at screen %.4f,%.4f left font \"DejaVu Sans Mono,%g\" tc rgb \"%s\" noenhanced\n",
        q(text), x / W, y / H, PT * size, colour
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
    print "plot [0:1][0:1] NaN notitle"; print "unset label"
}
function outline(level, text) { printf "outline\t%d\t%d\t%s\n", page, level, text > side }

# room for N lines of SIZE, else a new page that continues the section
function room(n, size) {
    if (y - n * size * 1.3 >= BOTTOM) return
    new_page(cont " (continued)", footer)
}

# one point: a bullet and its sentence, wrapped with a hanging indent
function point(s, size,    n, i) {
    n = wrap(s, chars(W - LEFT - 30 - LEFT, size, SANS))
    for (i = 1; i <= n; i++) { line_[i] = wrapped[i] }
    for (i = 1; i <= n; i++) {
        room(1, size)
        if (i == 1) label("•", LEFT, y, size, blue)
        label(line_[i], LEFT + 30, y, size, ink)
        y -= size * 1.3
    }
    y -= size * 0.35
}

# a block of fixed-width lines (a table, generated text): folded when wider
# than the slide; a block of more lines than a slide holds goes on over pages
function block(n, lines,    size, width, i, k, j, m) {
    size = 18; width = chars(W - 2 * 30, size, MONO)
    k = 0
    for (i = 1; i <= n; i++) {
        if (length(lines[i]) <= width) { folded[++k] = lines[i]; continue }
        m = lines[i]
        folded[++k] = substr(m, 1, width); m = substr(m, width + 1)
        while (m != "") { folded[++k] = "   " substr(m, 1, width - 3); m = substr(m, width - 2) }
    }
    room(k < 6 ? k : 6, size)
    for (j = 1; j <= k; j++) {
        room(1, size)
        mono(folded[j], 30, y, size, ink); y -= size * 1.25
    }
    y -= size * 0.5
}

# one check: its id and verdict, the claim, the measurement, the control
function check(id, verdict, text, measured, control, cverdict,    n, i, c, size) {
    size = 19
    n = wrap(id " " verdict ": " text, chars(W - 2 * LEFT, size, SANS))
    room(n + 2, size)
    for (i = 1; i <= n; i++) { label(wrapped[i], LEFT, y, size, i == 1 && verdict != "PASS" ? red : (i == 1 ? green : ink)); y -= size * 1.25 }
    if (measured != "") small_lines(measured, grey)
    if (control != "") small_lines(control " - " cverdict, cverdict ~ /as it should/ ? grey : red)
    y -= 10
}
function small_lines(s, colour,    n, i) {
    n = wrap(s, chars(W - 2 * LEFT - 30, 18, SANS))
    for (i = 1; i <= n; i++) { room(1, 18); label(wrapped[i], LEFT + 30, y, 18, colour); y -= 18 * 1.25 }
}

# ---------------------------------------------------------------- sections

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
    for (i = 1; i <= ns; i++) point(sent[i], 20)
}
function flush_block() {
    if (nb > 0) block(nb, blk)
    nb = 0
    if (runs > 0) point("(the progress lines of " runs " training run" (runs > 1 ? "s" : "") ": in the notes)", 18)
    runs = 0
}

function start_section(name) {
    flush_para(); flush_block(); place_figures()
    sec = name; nsec++
    new_page(name, prog ": " name)
    outline(2, name)
    if (name in eq) {
        label(eq[name], W / 2, y - 14, 30, ink, "", "center"); y -= 80
        delete eq[name]
    }
}

# figures whose first claim was checked in the section just ended
function place_figures(    i) {
    for (i = 1; i <= nfig; i++)
        if (!(i in placed) && (fanchor[i] in seen_id)) figure(i)
}
# a figure fills its slide (it is drawn at the slide's size, its type at
# 18 pt); its caption and claims follow on the next slide
function figure(i) {
    placed[i] = 1; figno++
    new_page("", "")
    figure_page = 1
    if (!frendered[i]) label("figure " fname[i] " was not rendered (gnuplot missing, or the chapter failed)", W / 2, H / 2, 24, red, "", "center")
    else printf "overlay\t%d\t%s\n", page, fname[i] > side
    new_page("Figure " figno ": what it shows", prog ": figure " fname[i] (fids[i] == "" ? "" : ", claims " fids[i]))
    point(fcap[i], 20)
    figure_claims(fids[i])
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
        if (brief) { check(f[1], f[2], f[3], "", "", ""); return }
        check(f[1], f[2], f[3], "", f[5] == "" ? "no control" : "control (" f[5] "): " f[6],
              f[4] == "FAILS" ? "fails, as it should" : f[4] == "HOLDS" ? "HOLDS: the check cannot tell right from wrong" : "")
        return
    }
}

# ---------------------------------------------------------------- narration

NR <= 3 && /^(Chapter |=+$|$)/ { next }
/^-- / { start_section(substr($0, 4)); next }
/^  [A-Z][0-9]+  (PASS|FAIL)  / {
    flush_para(); flush_block()
    if (sec == "") start_section(title)
    emit_check(); cid = $0; sub(/^  /, "", cid); cv = cid
    sub(/ .*/, "", cid); sub(/^[A-Z0-9]+  /, "", cv); ctext = cv; sub(/ .*/, "", cv); sub(/^[A-Z]+  /, "", ctext)
    cmeas = ""; cctl = ""; cctlv = ""; inclaim = 1; seen_id[cid] = 1; next
}
inclaim && /^             / { m = $0; sub(/^ +/, "", m); cmeas = cmeas (cmeas == "" ? "" : " ") m; next }
inclaim && /^      control/ { m = $0; sub(/^ +/, "", m); cctl = m; next }
inclaim && /^        / { m = $0; sub(/^ +/, "", m); cctlv = m; next }
{ emit_check() }
/^ch[0-9]+: [0-9]+ of [0-9]+ checks/ { flush_para(); flush_block(); tally = $0; next }
/^$/ { flush_para(); flush_block(); next }
# a training run's progress line ("step 300/300 ..."): in the notes, counted here
/^  .*step +[0-9]+\/[0-9]+ / { flush_para(); if (sec == "") start_section(title); runs++; next }
/^  / {
    flush_para(); if (sec == "") start_section(title)
    m = $0; while (match(m, /\t/)) m = substr(m, 1, RSTART - 1) substr("        ", 1, 8 - (RSTART - 1) % 8) substr(m, RSTART + 1)
    blk[++nb] = m; next
}
{ flush_block(); if (sec == "") start_section(title); para = para (para == "" ? "" : " ") $0 }

function emit_check() {
    if (!inclaim) return
    inclaim = 0
    check(cid, cv, ctext, cmeas, cctl, cctlv)
}

END {
    emit_check(); flush_para(); flush_block(); place_figures()
    for (i = 1; i <= nfig; i++) if (!(i in placed)) figure(i)
    if (results_for != "") trained()
    new_page(title ": the claims, checked", prog ": claims")
    outline(2, "The claims, checked")
    if (tally != "") { point(tally ". Each claim below was also checked on a near miss where it must not hold.", 22) }
    for (j = 1; j <= nsum; j++) { split(sumline[j], f, "\t"); summary(f[1]) }
    end_page()
    print page > (side ".pages")
}

# ---------------------------------------------------------------- --full

# the stored --full results, or a slide that says which command makes them
function trained(    l, nl, n, lines, hdr) {
    new_page(title ": the trained model (--full)", prog ": trained model")
    outline(2, "The trained model (--full)")
    if (results == "" || (getline l < results) <= 0) {
        point("The results of the full training run are not stored in this checkout yet.", 22)
        point("They come from: " results_cmd, 22)
        point("which writes " results_for "; run it once (minutes on two cores), commit the file, and make slides again: these slides then show its learning curve, text and heads.", 22)
        return
    }
    n = 0; hdr = ""
    do {
        if (l ~ /^# /) { point(substr(l, 3), 20); continue }
        gsub(/\t/, "  ", l); lines[++n] = l
    } while ((getline l < results) > 0)
    close(results)
    block(n, lines)
}
