/**
 * Both backends hand values back with the same JavaScript types: bigint counts as numbers
 * (PostgreSQL's COUNT is int8, and counts here stay far below 2^53), numerics as numbers, and
 * calendar dates as their ISO text rather than a Date at some local midnight.
 */
export const INT8 = 20;
export const NUMERIC = 1700;
export const DATE = 1082;
export const TIMESTAMPTZ = 1184;
export const parseNumber = (value: string) => Number(value);
export const keepText = (value: string) => value;
