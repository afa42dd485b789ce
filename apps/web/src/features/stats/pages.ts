/*
 * Both statistics pages as one lazy chunk (they share the charts): each page of the dashboard's route table adds its
 * chunk's name and dependencies to the first page's JavaScript, whose signed-out budget is 100 KB.
 */
export { ServerStatsPage } from './ServerStatsPage.js';
export { StatsPage } from './StatsPage.js';
