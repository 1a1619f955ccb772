export { isUniqueViolation } from '../../common/database/unique-violation';
