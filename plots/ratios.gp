# Per-test ratios "x baseline" (seed 004's test_vmalloc table): one cluster per test, one
# bar per variant, log scale so 1.1x and 40x both read. Data columns: test, then one
# ratio per series. The line at 1 is the baseline.
set style data histogram
set style histogram clustered gap 1.5
set style fill solid 0.85 border rgb "#333333"
set boxwidth 0.9 relative
set logscale y
set xtics noenhanced rotate by -45 left scale 0
set xlabel xlabel_text
set ylabel ylabel_text
set title chart_title
set key top left horizontal noenhanced
set bmargin chart_bmargin
set rmargin 6
set offsets 0, 0, 0, 0
do for [fmt in formats] {
    eval open_output(fmt)
    plot for [i=1:nseries] datafile using (column(i+1)):xtic(1) title series_titles[i] lt i, \
         1 with lines lt -1 lw 1 dt 2 notitle
    set output
}
