/** A state dir (or lock dir) that someone other than root or this user could change. */
export class UnsafeStateDir extends Error {}
