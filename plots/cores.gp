# Slowdown % against the baseline as the guest's vCPU count grows (seed 001's 2/6/12/24
# sweep); one line per variant with the headline's 95% CI as error bars. Data: one block
# per variant (blocks separated by two blank lines), columns vCPUs, slowdown %, 95% CI low
# end, high end.
set xlabel xlabel_text
set ylabel ylabel_text
set title chart_title
set key top left noenhanced
set xzeroaxis lt -1 lw 1.2
set logscale x 2
set offsets graph 0.06, graph 0.06, graph 0.1, graph 0.05
eval "set xtics " . xtics_spec
do for [fmt in formats] {
    eval open_output(fmt)
    plot for [i=1:nseries] datafile index (i-1) using 1:2:3:4 with yerrorlines \
         title series_titles[i] lt i
    set output
}
