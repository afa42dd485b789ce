import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

/*
 * Chart.js, as much of it as the statistics draw: bar charts on a category axis with tooltips. Registering these
 * parts alone (instead of chart.js/auto) keeps the page's chunk small; the page is loaded only when it is opened.
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

export { Chart };
