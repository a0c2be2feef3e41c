/** fpp2 elecdaily as rows a client uploads: daily electricity demand in Victoria, 2014, with WorkDay (logical) and Temperature. */
import { column, readFixture } from './fixtures.js';

export interface ElecdailyRow { date: string; Demand: string; WorkDay: 'TRUE' | 'FALSE'; Temperature: string }

export function elecdailyRows(): ElecdailyRow[] {
  const read = (name: string) => column(readFixture('forecast', 'fpp2', `elecdaily_${name}.csv`), 'value');
  const dates = column(readFixture('forecast', 'fpp2', 'elecdaily_Demand.csv'), 'date');
  const demand = read('Demand');
  const workday = read('WorkDay');
  const temperature = read('Temperature');
  return dates.map((date, i) => ({ date, Demand: demand[i]!, WorkDay: workday[i] === '1' ? 'TRUE' : 'FALSE', Temperature: temperature[i]! }));
}
