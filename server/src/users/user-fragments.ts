// SQL fragments for statements of other folders that show a user's data: the users table is named
// in a statement only under users/. Each takes an SQL expression of the outer statement, which must
// name its table (`m.user_id`, not `user_id`) so that it cannot resolve to a column of users.

/** SQL: the email of the user whose id is `userId`; null when there is none. */
export const emailOfUser = (userId: string) => `(select users.email from users where users.id = ${userId})`;

/** SQL: whether an account uses the email `email`. */
export const accountExists = (email: string) => `exists (select 1 from users where users.email = ${email})`;
