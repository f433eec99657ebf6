// The permission of money moves on existing payments (capture, void, refund retry, a staff
// checkout's capture mode). Its own string rather than orders:update, so a role can edit orders
// without moving money; staff, admin and owner have it by default (config DEFAULT_ROLES).
export const PAYMENTS_MANAGE = 'payments:manage';
