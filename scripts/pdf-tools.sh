# Shared by slides.sh and course.sh (sourced): bookmarks and title metadata
# for a PDF, written with qpdf's JSON update (qpdf 11).

# json string of TEXT (qpdf: "u:" and UTF-8)
pdf_json_text() { printf '"u:%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }

# IN OUTLINE TITLE OUT: OUT is IN with one bookmark per line of OUTLINE
# ("PAGE<tab>LEVEL<tab>TEXT", level 1 the outermost; each bookmark goes
# under the last one of a lower level), the title in its metadata, and the
# bookmarks shown when it opens. Long outlines open with level 1 folded.
pdf_outline() {
    _in=$1 _outline=$2 _title=$3 _out=$4
    _max=$(qpdf --json=2 --json-key=qpdf "$_in" - | sed -n 's/.*"maxobjectid": *\([0-9]*\).*/\1/p')
    _root=$(qpdf --json=2 --json-key=qpdf --json-object=trailer "$_in" - | sed -n 's/.*"\/Root": *"\([0-9]*\) 0 R".*/\1/p')
    _pages=$(qpdf --json=2 --json-key=qpdf --json-object="$_root" "$_in" - | sed -n 's/.*"\/Pages": *"\([0-9]* 0 R\)".*/\1/p')
    qpdf --json=2 --json-key=pages "$_in" - | sed -n 's/^ *"object": *"\([0-9]* 0 R\)".*/\1/p' >"$_outline.objects"
    [ -n "$_max" ] && [ -n "$_pages" ] && [ -s "$_outline.objects" ] ||
        { echo "pdf_outline: cannot read the structure of $_in" >&2; return 3; }
    awk -F'\t' -v max="$_max" -v pages="$_pages" -v title="$(pdf_json_text "$_title")" -v objs="$_outline.objects" '
        function js(s) { gsub(/\\/, "\\\\\\\\", s); gsub(/"/, "\\\"", s); return "\"u:" s "\"" }
        function ref(i) { return "\"" (max + 1 + i) " 0 R\"" }
        BEGIN { while ((getline l < objs) > 0) obj[++np] = l }
        $1 >= 1 && $1 <= np { n++; pg[n] = $1; lv[n] = $2; tx[n] = $3 }
        END {
            for (i = 1; i <= n; i++) {
                par[i] = 0
                for (j = i - 1; j >= 1; j--) if (lv[j] < lv[i]) { par[i] = j; break }
                if (last[par[i]]) { nx[last[par[i]]] = i; pv[i] = last[par[i]] } else first[par[i]] = i
                last[par[i]] = i; kids[par[i]]++
            }
            printf "{\"qpdf\": [{\"jsonversion\": 2, \"pushedinheritedpageresources\": false, \"calledgetallpages\": false, \"maxobjectid\": %d}, {\n", max
            printf "%s: {\"value\": {\"/Type\": \"/Outlines\", \"/First\": %s, \"/Last\": %s, \"/Count\": %d}},\n", \
                "\"obj:" max + 1 " 0 R\"", ref(first[0]), ref(last[0]), kids[0]
            for (i = 1; i <= n; i++) {
                printf "\"obj:%d 0 R\": {\"value\": {\"/Title\": %s, \"/Parent\": %s, \"/Dest\": [\"%s\", \"/Fit\"]", \
                    max + 1 + i, js(tx[i]), par[i] ? ref(par[i]) : "\"" max + 1 " 0 R\"", obj[pg[i]]
                if (nx[i]) printf ", \"/Next\": %s", ref(nx[i])
                if (pv[i]) printf ", \"/Prev\": %s", ref(pv[i])
                if (kids[i]) printf ", \"/First\": %s, \"/Last\": %s, \"/Count\": %d", ref(first[i]), ref(last[i]), (n > 40 ? -kids[i] : kids[i])
                print "}},"
            }
            printf "\"obj:%d 0 R\": {\"value\": {\"/Type\": \"/Catalog\", \"/Pages\": \"%s\", \"/Outlines\": \"%d 0 R\", \"/PageMode\": \"/UseOutlines\"}},\n", max + n + 2, pages, max + 1
            printf "\"obj:%d 0 R\": {\"value\": {\"/Title\": %s, \"/Author\": \"u:Inventing the Transformer, in C\", \"/Creator\": \"u:scripts/slides.sh (gnuplot, qpdf)\"}},\n", max + n + 3, title
            printf "\"trailer\": {\"value\": {\"/Root\": \"%d 0 R\", \"/Info\": \"%d 0 R\", \"/Size\": %d}}\n}]}\n", max + n + 2, max + n + 3, max + n + 4
        }' "$_outline" >"$_outline.json" &&
        qpdf "$_in" --update-from-json="$_outline.json" "$_out" ||
        { echo "pdf_outline: qpdf could not add bookmarks to $_out" >&2; rm -f "$_outline.json" "$_outline.objects"; return 3; }
    rm -f "$_outline.json" "$_outline.objects"
}

# TITLE TEXT_FILE PDF: the text as A4 pages of fixed-width type (a handout),
# long lines folded, the title and a page number on every page. Strings are
# single-quoted for gnuplot, which runs `commands` in double-quoted ones.
text_pdf() {
    _gp=$(mktemp) || return 3
    { echo 'set terminal pdfcairo noenhanced color size 8.27in,11.69in font "DejaVu Sans Mono,14"'
      echo "set output '$3.tmp'"
      echo 'unset border; unset tics; unset key; set margins 0,0,0,0'
      expand "$2" | fold -s -w 80 | awk -v title="$1" '
          function q(s) { gsub(/\047/, "\047\047", s); return "\047" (s ~ /^\047/ ? " " : "") s "\047" }
          function head() { printf "set label %s at screen 0.08,0.965 font \"Sans,14\"\n", q(title)
                            printf "set label \"%d\" at screen 0.92,0.03 right font \"Sans,15\"\n", ++p; k = 0 }
          function done() { print "plot [0:1][0:1] NaN notitle"; print "unset label" }
          NR == 1 { head() }
          k == 70 { done(); head() }
          { k++; printf "set label %s at screen 0.08,%.4f\n", q($0), 0.935 - k * 0.0125 }
          END { if (NR == 0) head(); done() }'; } >"$_gp"
    gnuplot "$_gp" 2>"$_gp.err" && mv "$3.tmp" "$3" ||
        { echo "text_pdf: gnuplot failed on $2: $(head -n 1 "$_gp.err")" >&2; rm -f "$_gp" "$_gp.err" "$3.tmp"; return 3; }
    rm -f "$_gp" "$_gp.err"
}
