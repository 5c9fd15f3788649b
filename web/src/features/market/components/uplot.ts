// uPlot and its stylesheet, in a chunk of their own that only the market chart loads (product
// §market-index: the chart library is never on the home route's critical path).
import 'uplot/dist/uPlot.min.css';
import uPlot from 'uplot';

export default uPlot;
