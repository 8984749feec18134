/** The database's tables, one file per area; drizzle-kit reads this folder. */
export * from './users';
export * from './devices';
export * from './billing';
export * from './audit';
export * from './mail';
export * from './codes';
export * from './videos';
export * from './external-sign-in';
export * from './legacy';
export * from './jobs';
export * from './encryption';
export * from './transfers';
export * from './care-homes';
export * from './support';
