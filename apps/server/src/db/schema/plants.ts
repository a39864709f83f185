// Row types of the store for plants, their shares and their transfers between owners. Times are epoch
// milliseconds; booleans are 0/1 (portable).
import type { Generated } from 'kysely';

export interface PlantsTable {
  id: Generated<number>;
  name: string;
  type: Generated<number>;
  capacity: Generated<number>;
  owner_user_id: number | null;
  company_id: number | null;
  timezone: Generated<string>;
  currency: string | null;
  latitude: number | null;
  longitude: number | null;
  address: string | null;
  status: Generated<string>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  // 004_plants
  commissioning_date: string | null;
  valuation_method: Generated<'constant' | 'tou' | 'generation'>;
  price: number | null;
  /** JSON [{ start: 'HH:mm', end: 'HH:mm', price }]. */
  price_segments: Generated<string>;
  picture_url: string | null;
  thumbnail_url: string | null;
  alias: string | null;
  total_investment: number | null;
  contact_name: string | null;
  contact_phone: string | null;
  /** Manual income adjustment. */
  income_total: number | null;
  /** Latest values (energy/plant-summary.ts): power now, energy of `energy_day` (plant-local), total. */
  power_w: number | null;
  energy_day: string | null;
  energy_today_wh: Generated<number>;
  energy_total_wh: Generated<number>;
  last_data_at: number | null;
  /** The meter the plant's grid import/export come from; null: all its meters. */
  master_meter_id: number | null;
}

export type ShareRole = 'manager' | 'visitor';
export interface PlantSharesTable {
  plant_id: number;
  user_id: number;
  role: ShareRole;
  created_at: number;
}

/** 024: a plant offered to another account; `status` pending, accepted, declined, cancelled or expired. */
export interface PlantTransfersTable {
  id: Generated<number>;
  plant_id: number;
  from_user_id: number;
  to_user_id: number;
  /** Who held the plant when it was offered (owner, or company for a company plant). */
  owner_user_id: number | null;
  company_id: number | null;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'expired';
  created_at: number;
  expires_at: number;
  closed_at: number | null;
  closed_by: number | null;
}
