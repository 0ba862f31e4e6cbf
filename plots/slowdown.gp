# Slowdown % of each variant against the baseline, with the headline's 95% CI as error
# bars; one cluster of bars per variant, one bar per vCPU count. Data columns: variant,
# then per series a slowdown %, its 95% CI low end and its high end (a paired interval is
# not symmetric).
set style data histogram
set style histogram errorbars gap 1.5 lw 1.5
set style fill solid 0.85 border rgb "#333333"
set boxwidth 0.9 relative
set xzeroaxis lt -1 lw 1.2
set xtics noenhanced scale 0
set xlabel xlabel_text
set ylabel ylabel_text
set title chart_title
set key top left horizontal noenhanced
do for [fmt in formats] {
    eval open_output(fmt)
    if (nseries == 1) {
        # One bar per variant: print its value above (or below) the error bar.
        plot datafile using 2:3:4:xtic(1) title series_titles[1] lt 1, \
             '' using 0:($2 >= 0 ? $4 : NaN):(sprintf("%+.2f%%", $2)) \
             with labels offset 0, char 0.8 notitle, \
             '' using 0:($2 < 0 ? $3 : NaN):(sprintf("%+.2f%%", $2)) \
             with labels offset 0, char -0.8 notitle
    } else {
        plot for [i=1:nseries] datafile using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(1) \
             title series_titles[i] lt i
    }
    set output
}
